import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The on-disk and on-the-wire formats compared byte for byte with golden files in
/// `Tests/ConformanceFixtures/`. Re-record them on purpose with `CARILLON_WRITE_FIXTURES=1 swift test`.
@Suite struct ConformanceTests {
    static let fixtures = Paths.tests("ConformanceFixtures")

    static var rewriting: Bool { getenv("CARILLON_WRITE_FIXTURES").map { String(cString: $0) == "1" } ?? false }

    /// Compares `actual` with the golden file `name`, or rewrites the file when asked to.
    static func expectMatchesFixture(_ actual: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = FileSystem.join(fixtures, name)
        if rewriting {
            try FileSystem.makeDirectory(fixtures, mode: 0o755)
            _ = try FileSystem.publishAtomically(actual, to: path, mode: 0o644, replace: true)
            return
        }
        let golden = try FileSystem.readFile(path)
        #expect(
            String(decoding: actual, as: UTF8.self) == String(decoding: golden, as: UTF8.self),
            "differs from \(path); re-record with CARILLON_WRITE_FIXTURES=1 if the change is intended",
            sourceLocation: sourceLocation)
    }

    /// 250 events, a fifth of them `opened`, a millisecond apart, in queue order.
    static let events: [Event] = (1...250).map { n in
        Event(
            type: n % 5 == 0 ? .opened : .received, deliveryID: TestDeliveryID.make(n),
            at: ReceiptsFixture.time.adding(.milliseconds(Int64(n))))
    }

    @Test func receiptFormatVersion1() throws {
        let receipt = Receipt(deliveryID: DeliveryID("01937b21-0000-7000-8000-000000000000")!, receivedAt: ReceiptsFixture.time)
        try Self.expectMatchesFixture(receipt.encoded(), "receipt-v1.receipt")
        // Whatever the golden file says must also read back as the same receipt.
        let golden = try FileSystem.readFile(FileSystem.join(Self.fixtures, "receipt-v1.receipt"))
        #expect(try Receipt.decode(golden, fileName: "01937b21-0000-7000-8000-000000000000.receipt") == receipt)
    }

    @Test func eventFileFormatVersion1() throws {
        let record = QueuedEvent(
            event: Event(type: .received, deliveryID: DeliveryID("01937b21-0000-7000-8000-000000000000")!, at: ReceiptsFixture.time),
            sequence: 17)
        try Self.expectMatchesFixture(record.encoded(), "event-v1.event")
        let golden = try FileSystem.readFile(FileSystem.join(Self.fixtures, "event-v1.event"))
        #expect(try QueuedEvent.decode(golden, fileName: "received-01937b21-0000-7000-8000-000000000000.event") == record)
    }

    /// A format-2 queue file (what one enqueue writes): the encoder writes the golden file, the decoder
    /// reads it whole, and a queue holding it beside a format-1 file reads both, in order.
    @Test func eventFileFormatVersion2() throws {
        let id = DeliveryID("01937b21-0000-7000-8000-000000000000")!
        let records = [
            QueuedEvent(event: Event(type: .received, deliveryID: id, at: ReceiptsFixture.time), sequence: 17),
            QueuedEvent(event: Event(type: .opened, deliveryID: id, at: ReceiptsFixture.time.adding(.milliseconds(17_885))), sequence: 18),
        ]
        try Self.expectMatchesFixture(QueuedEventFile.encode(records), "events-v2.events")
        let golden = try FileSystem.readFile(FileSystem.join(Self.fixtures, "events-v2.events"))
        #expect(try QueuedEventFile.decode(golden) == QueuedEventFile.Decoded(events: records, problems: []))

        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        _ = try FileSystem.publishAtomically(golden, to: scratch.file("queue/batch-golden.events"))
        let old = try FileSystem.readFile(FileSystem.join(Self.fixtures, "event-v1.event"))
        let other = DeliveryID("01937b21-0000-7000-8000-000000000001")!
        let oldFile = Array(
            String(decoding: old, as: UTF8.self).replacingOccurrences(of: "\"sequence\":17", with: "\"sequence\":3")
                .replacingOccurrences(of: id.rawValue, with: other.rawValue).utf8)
        _ = try FileSystem.publishAtomically(oldFile, to: scratch.file("queue/received-\(other.rawValue).event"))
        #expect(try queue.pending() == [Event(type: .received, deliveryID: other, at: ReceiptsFixture.time)] + records.map(\.event))
    }

    /// The request bodies for 250 queued events: three lines of 100, 100 and 50 events, as
    /// `carillon-nse batches` prints them.
    @Test func requestBodiesFor250Events() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        #expect(queue.enqueue(contentsOf: Self.events).allSatisfy { (try? $0.get()) == true })
        let bodies = try queue.batches().map { $0.requestBody + "\n" }.joined()
        try Self.expectMatchesFixture(Array(bodies.utf8), "events-request-250.jsonl")
    }

    /// The golden bodies are JSON the API accepts: each line an object with at most 100 events whose
    /// members are exactly type, delivery_id and at.
    @Test func goldenRequestBodiesAreWellFormed() throws {
        let text = String(decoding: try FileSystem.readFile(FileSystem.join(Self.fixtures, "events-request-250.jsonl")), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3)
        var seen: [Event] = []
        for line in lines {
            let body = try JSONParser.parse(Array(line.utf8))
            guard case .object(let top) = body, top.count == 1, case .array(let events)? = body["events"] else {
                Issue.record("not {\"events\":[...]}: \(line.prefix(80))")
                continue
            }
            #expect(events.count <= 100)
            for event in events {
                guard case .object(let members) = event else { continue }
                #expect(members.map(\.key) == ["type", "delivery_id", "at"])
                if let type = event["type"]?.stringValue.flatMap(EventType.init(rawValue:)),
                    let id = event["delivery_id"]?.stringValue.flatMap(DeliveryID.init),
                    let at = event["at"]?.stringValue.flatMap(Timestamp.init(iso8601:))
                {
                    seen.append(Event(type: type, deliveryID: id, at: at))
                }
            }
        }
        #expect(seen == Self.events)
    }
}
