import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `EnqueueSelection`: which of an enqueue's events are written, from a table.
@Suite struct EnqueueSelectionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var why: String
        /// The events, as (type, delivery id number).
        var events: [(EventType, Int)]
        var queued: [(EventType, Int)]
        /// Per event: nil for a new one, false for one not added.
        var results: [Bool?]
        var fresh: [Int]
        var foundQueued: Bool

        var testDescription: String { why }
    }

    static let rows: [Row] = [
        Row(
            why: "nothing queued: all new", events: [(.received, 1), (.opened, 1), (.received, 2)], queued: [],
            results: [nil, nil, nil], fresh: [0, 1, 2], foundQueued: false),
        Row(
            why: "a repeat in the list: the first is written", events: [(.received, 1), (.received, 1)], queued: [],
            results: [nil, false], fresh: [0], foundQueued: false),
        Row(
            why: "already queued: not added, and found", events: [(.received, 1)], queued: [(.received, 1)],
            results: [false], fresh: [], foundQueued: true),
        Row(
            why: "the same id, another type: new", events: [(.opened, 1)], queued: [(.received, 1)],
            results: [nil], fresh: [0], foundQueued: false),
        Row(
            why: "mixed, order kept", events: [(.received, 3), (.received, 1), (.received, 3), (.opened, 2)],
            queued: [(.received, 1), (.opened, 9)], results: [nil, false, false, nil], fresh: [0, 3], foundQueued: true),
        Row(
            why: "a queued event repeated: found once, not added twice", events: [(.received, 1), (.received, 1)],
            queued: [(.received, 1)], results: [false, false], fresh: [], foundQueued: true),
    ]

    @Test(arguments: rows)
    func selects(row: Row) {
        let events = row.events.map { Event(type: $0.0, deliveryID: TestDeliveryID.make($0.1), at: ReceiptsFixture.time) }
        let queued = Set(row.queued.map { EventKey($0.0, TestDeliveryID.make($0.1)) })
        let selection = EnqueueSelection(events, queued: queued)
        #expect(selection.results.map { result in result.map { (try? $0.get()) ?? true } } == row.results)
        #expect(selection.fresh == row.fresh)
        #expect(selection.foundQueued == row.foundQueued)
    }
}
