import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `OpenTracking.didOpen(userInfo:at:queue:)`: the `opened` events the app queues on a tap.
@Suite struct EventQueueOpenTrackingTests {
    static let stamped: [(String, String)] = [
        (
            "object form",
            #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"delivery_id":"01937b21-0000-7000-8000-00000000002a","image":"https://example.com/a.png"}}"#
        ),
        ("Android string form", #"{"carillon":"{\"delivery_id\":\"01937B21-0000-7000-8000-00000000002A\"}"}"#),
        // A silent push is never routed to the extension, but a tap on a stamped notification still counts.
        ("without aps", #"{"carillon":{"delivery_id":"01937b21-0000-7000-8000-00000000002a","extra":[1]}}"#),
    ]

    @Test(arguments: stamped)
    func queuesOpenedForAStampedPayload(form: String, payload: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let userInfo = try JSONParser.parse(Array(payload.utf8))
        let expected = Event(type: .opened, deliveryID: TestDeliveryID.make(0x2a), at: ReceiptsFixture.time)

        let result = try OpenTracking.didOpen(userInfo: userInfo, at: ReceiptsFixture.time, queue: queue)
        #expect(result == .queued(expected))
        #expect(result.event == expected)

        // A second tap keeps the first event and its time.
        let again = try OpenTracking.didOpen(userInfo: userInfo, at: ReceiptsFixture.time.adding(.milliseconds(60_000)), queue: queue)
        #expect(again == .alreadyQueued(TestDeliveryID.make(0x2a)))
        #expect(again.event == nil)
        #expect(try queue.pending() == [expected])
    }

    static let unstamped: [(String, String)] = [
        (#"{"aps":{"alert":"Hi"}}"#, "no 'carillon' key"),
        (#"{"carillon":{"image":"https://example.com/a.png"}}"#, "'carillon' has no delivery_id"),
        (#"{"carillon":{"delivery_id":"not-a-uuid"}}"#, "carillon.delivery_id 'not-a-uuid' is not a UUID"),
        (#"{"carillon":{"delivery_id":42}}"#, "carillon.delivery_id is number, not a string"),
        (#"{"carillon":"{broken"}"#, "'carillon' is a string that is not valid JSON"),
        (#"{"carillon":[1]}"#, "'carillon' is array, not an object"),
    ]

    @Test(arguments: unstamped)
    func ignoresAnUnstampedPayload(payload: String, why: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let result = try OpenTracking.didOpen(userInfo: try JSONParser.parse(Array(payload.utf8)), at: ReceiptsFixture.time, queue: queue)
        guard case .notStamped(let message) = result else {
            Issue.record("expected notStamped, got \(result)")
            return
        }
        #expect(message.hasPrefix("not a Carillon notification: "))
        #expect(message.contains(why), "\(message)")
        #expect(!message.hasSuffix("no receipt"))
        #expect(result.event == nil)
        #expect(try queue.pending().isEmpty)
    }

    /// Several taps at once: one queue file, each payload's own result in order, the first of two for
    /// one delivery queued.
    @Test func severalTapsAreQueuedTogether() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let payloads = try [Self.stamped[0].1, #"{"aps":{"alert":"Hi"}}"#, Self.stamped[1].1].map { try JSONParser.parse(Array($0.utf8)) }
        var warnings: [String] = []
        let results = OpenTracking.didOpen(payloads, at: ReceiptsFixture.time, queue: queue, warnings: &warnings)
        let expected = Event(type: .opened, deliveryID: TestDeliveryID.make(0x2a), at: ReceiptsFixture.time)
        let got = results.map { try? $0.get() }
        #expect(got.count == 3 && got[0] == .queued(expected) && got[2] == .alreadyQueued(TestDeliveryID.make(0x2a)), "\(got)")
        if case .notStamped? = got[1] {} else { Issue.record("expected notStamped, got \(String(describing: got[1]))") }
        #expect(try queue.pending() == [expected])
        #expect(try FileSystem.contentsOfDirectory(queue.directory).filter { $0.hasSuffix(".events") }.count == 1)
    }
}
