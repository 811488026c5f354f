import CarillonTestSupport
import Synchronization
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `PresentTracking.willPresent(userInfo:at:queue:onReceived:warnings:)`: the `received` events the app
/// queues when a notification arrives in the foreground, and the presentation it asks for.
@Suite struct PresentTrackingTests {
    @Test(arguments: EventQueueOpenTrackingTests.stamped)
    func queuesReceivedForAStampedPayload(form: String, payload: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let userInfo = try JSONParser.parse(Array(payload.utf8))
        let expected = Event(type: .received, deliveryID: TestDeliveryID.make(0x2a), at: ReceiptsFixture.time)
        var warnings: [String] = []

        let first = PresentTracking.willPresent(userInfo: userInfo, at: ReceiptsFixture.time, queue: queue, warnings: &warnings)
        #expect(first == .init(received: .queued(expected), presentation: [.banner, .list, .sound, .badge]))
        #expect(first.received.code == "received")

        // Presented again later (or with a handler that shows nothing): the first event and its time stay.
        let again = PresentTracking.willPresent(
            userInfo: userInfo, at: ReceiptsFixture.time.adding(.milliseconds(60_000)), queue: queue, onReceived: { _ in [] },
            warnings: &warnings)
        #expect(again == .init(received: .alreadyQueued(TestDeliveryID.make(0x2a)), presentation: []))
        #expect(again.received.code == "duplicate")
        #expect(try queue.pending() == [expected])
        #expect(warnings.isEmpty)
    }

    @Test(arguments: EventQueueOpenTrackingTests.unstamped)
    func anUnstampedPayloadReachesTheHandlerWithoutADeliveryID(payload: String, why: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let handled = HandlerCalls()
        var warnings: [String] = []
        let result = PresentTracking.willPresent(
            userInfo: try JSONParser.parse(Array(payload.utf8)), at: ReceiptsFixture.time, queue: queue,
            onReceived: { id in
                handled.record(id)
                return [.list]
            }, warnings: &warnings)
        guard case .notStamped(let message) = result.received else {
            Issue.record("expected notStamped, got \(result)")
            return
        }
        #expect(message.hasPrefix("not a Carillon notification: ") && message.contains(why), "\(message)")
        #expect(result.received.code == "none" && result.received.deliveryID == nil)
        #expect(result.presentation == [.list])
        #expect(handled.ids == [nil])
        #expect(try queue.pending().isEmpty)
    }

    @Test func theHandlerGetsTheDeliveryIDAndTheReceiptIsQueuedWhateverItAnswers() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let handled = HandlerCalls()
        var warnings: [String] = []
        let result = PresentTracking.willPresent(
            userInfo: try JSONParser.parse(Array(EventQueueOpenTrackingTests.stamped[0].1.utf8)), at: ReceiptsFixture.time, queue: queue,
            onReceived: { id in
                handled.record(id)
                return []
            }, warnings: &warnings)
        #expect(result.presentation.isEmpty)
        #expect(handled.ids == [TestDeliveryID.make(0x2a)])
        #expect(try queue.pending().map(\.type) == [.received])
    }

    @Test func aQueueThatCannotBeWrittenFailsAndStillPresents() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        // The queue directory vanishes and a file takes its place: nothing can be published there.
        TemporaryDirectory.removeTree(scratch.file("queue"))
        ReceiptsFixture.write("not a directory", to: scratch.file("queue"))
        var warnings: [String] = []
        let result = PresentTracking.willPresent(
            userInfo: try JSONParser.parse(Array(EventQueueOpenTrackingTests.stamped[0].1.utf8)), at: ReceiptsFixture.time, queue: queue,
            warnings: &warnings)
        guard case .failed(let id, _) = result.received else {
            Issue.record("expected failed, got \(result)")
            return
        }
        #expect(id == TestDeliveryID.make(0x2a))
        #expect(result.received.code == "failed")
        #expect(result.presentation == PresentationOption.sdkDefault)
    }
}

/// The delivery ids an `onReceived` handler was called with.
final class HandlerCalls: Sendable {
    private let calls = Mutex<[DeliveryID?]>([])
    func record(_ id: DeliveryID?) { calls.withLock { $0.append(id) } }
    var ids: [DeliveryID?] { calls.withLock { $0 } }

    /// Several notifications at once: one queue file, each its own result and presentation, in order.
    @Test func severalNotificationsAreQueuedTogether() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let texts = [EventQueueOpenTrackingTests.stamped[0].1, #"{"aps":{"alert":"Hi"}}"#, EventQueueOpenTrackingTests.stamped[1].1]
        var warnings: [String] = []
        let results = PresentTracking.willPresent(
            try texts.map { try JSONParser.parse(Array($0.utf8)) }, at: ReceiptsFixture.time, queue: queue, warnings: &warnings)
        #expect(results.map(\.received.code) == ["received", "none", "duplicate"])
        #expect(results.allSatisfy { $0.presentation == PresentationOption.sdkDefault })
        #expect(try queue.pending() == [Event(type: .received, deliveryID: TestDeliveryID.make(0x2a), at: ReceiptsFixture.time)])
        #expect(try FileSystem.contentsOfDirectory(queue.directory).filter { $0.hasSuffix(".events") }.count == 1)
    }
}
