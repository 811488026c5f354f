import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Removing acknowledged events from format-2 files, and setting refused ones aside, with real files.
@Suite struct EventQueueAcknowledgedTests {
    static func received(_ n: Int) -> Event { EventQueueTests.received(n, at: Int64(n)) }

    static func eventFiles(_ queue: EventQueue) throws -> [String] {
        try FileSystem.contentsOfDirectory(queue.directory).filter { $0.hasSuffix(".events") }
    }

    static func eventsInFiles(_ directory: String) throws -> [Event] {
        try FileSystem.contentsOfDirectory(directory).filter { $0.hasSuffix(".events") }.flatMap { name in
            try QueuedEventFile.decode(try FileSystem.readFile(directory + "/" + name)).events.map(\.event)
        }
    }

    @Test func aFileLeavesWhenAllItsEventsAreAcknowledgedAndTheRestIsRewrittenOnce() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let first = (1...250).map(Self.received)
        let second = (251...400).map(Self.received)
        _ = queue.enqueue(contentsOf: first)
        _ = queue.enqueue(contentsOf: second)
        let events = try queue.pending()
        #expect(events == first + second)

        // As the uploader does: batches of 100, acknowledged one by one.
        let batches = EventBatch.batches(of: events).map(\.events)
        for batch in batches[0..<3] { try queue.removeAcknowledged(batch) }
        #expect(try Self.eventFiles(queue).count == 1, "the first file left with its last acknowledged event")
        #expect(try Self.eventsInFiles(queue.directory) == second, "the second is untouched until the sync")

        // A kill now: a new reader sees the acknowledged events of the partial file again (sent again,
        // which the API ignores) and every other.
        #expect(try EventQueue(directory: queue.directory).pending() == Array(events[250...]))
        try queue.syncRemovals()
        #expect(try Self.eventsInFiles(queue.directory) == Array(second[50...]))
        #expect(try queue.pending() == Array(second[50...]))

        // The rest, by a queue object that never read the contents.
        let other = try EventQueue(directory: queue.directory)
        try other.removeAcknowledged(Array(second[50...]))
        #expect(try Self.eventFiles(queue).isEmpty)
        try other.syncRemovals()
        #expect(try queue.pending().isEmpty)
    }

    @Test func theRewriteKeepsEventsQueuedMeanwhileAndNeverDropsAnUnacknowledgedOne() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        _ = queue.enqueue(contentsOf: (1...10).map(Self.received))
        let read = try queue.pending()
        try queue.removeAcknowledged(Array(read[0..<4]))
        // Another process acknowledges more of the same file and syncs first.
        let other = try EventQueue(directory: queue.directory)
        _ = try other.pending()
        try other.remove(Array(read[0..<6]))
        _ = queue.enqueue(contentsOf: [Self.received(11)])
        try queue.syncRemovals()
        #expect(try queue.pending() == (7...11).map(Self.received))
    }

    @Test func refusedEventsOfAFileGoToQuarantineAndTheRestStays() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        _ = queue.enqueue(contentsOf: (1...5).map(Self.received))
        let old = QueuedEvent(event: Self.received(6), sequence: 99)
        _ = try FileSystem.publishAtomically(
            old.encoded(), to: queue.directory + "/" + QueuedEvent.fileName(for: .received, old.event.deliveryID))
        _ = try queue.pending()
        try queue.removeAcknowledged([Self.received(1)])

        let moved = try queue.setAside([Self.received(2), Self.received(3), Self.received(6)], reason: "POST /v1/events answered 422: no")
        #expect(moved.count == 2, "one record per queue file: \(moved)")
        #expect(moved.allSatisfy { $0.reason == "POST /v1/events answered 422: no" })
        #expect(try queue.pending() == [4, 5].map(Self.received), "the refused left, and the acknowledged with them")
        #expect(try Self.eventsInFiles(queue.quarantineDirectory) == [2, 3].map(Self.received))
        let names = try FileSystem.contentsOfDirectory(queue.quarantineDirectory)
        #expect(names.filter { $0.hasSuffix(".reason") }.count == 2, "\(names)")
        #expect(names.contains(QueuedEvent.fileName(for: .received, TestDeliveryID.make(6))))
        // A second refusal from the same file keeps both quarantined files.
        _ = try queue.setAside([Self.received(4)], reason: "again")
        #expect(try queue.pending() == [Self.received(5)])
        #expect(
            try FileSystem.contentsOfDirectory(queue.quarantineDirectory).filter { $0.contains(".events") && !$0.hasSuffix(".reason") }
                .count == 2)
    }
}
