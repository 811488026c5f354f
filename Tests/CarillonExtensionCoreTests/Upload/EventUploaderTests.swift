@_spi(Tooling) import CarillonExtensionCore
import CarillonTestSupport
import Foundation
import Testing

/// The uploader in process, with the policy's base and random source injected: the backoff's ceilings
/// as the policy states them, the waits it asks for, and the queue after a give-up.
@Suite(.timeLimit(.minutes(1))) struct EventUploaderTests {
    static func queue(_ count: Int, in work: TemporaryDirectory) throws -> EventQueue {
        let queue = try EventQueue(directory: work.file("queue"))
        let now = Timestamp.now()
        let events = (1...count).map { Event(type: .received, deliveryID: DeliveryID(TestDeliveryID.text($0))!, at: now) }
        _ = queue.enqueue(contentsOf: events)
        return queue
    }

    @Test func theBackoffDrawsUnderDoublingCeilingsAndGivesUpWithEverythingKept() async throws {
        let work = TemporaryDirectory("uploader")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let queue = try Self.queue(3, in: work)
        try server.script([["status": 500], ["status": 502], ["status": 503], ["status": 504]])
        let uppers = CallRecorder<Int>()
        let waits = CallRecorder<Duration>()
        let uploader = EventUploader(
            endpoint: try EventsEndpoint(validating: server.baseURL + "/"), key: try MobileKey(firstLineOf: server.key),
            policy: RetryPolicy(base: .milliseconds(2), cap: .milliseconds(5), maximumAttempts: 4, deadline: .seconds(10)),
            extraCAFile: server.caFile,
            random: { upper in
                uppers.record(upper)
                return upper
            },
            sleep: { waits.record($0) })
        let attempts = CallRecorder<UploadAttempt>()
        let report = try await onOwnThread { uploader.upload(queue) { attempts.record($0) } }
        #expect(uppers.values == [2, 4, 5], "base 2 ms doubling, capped at 5 ms")
        #expect(waits.values == [2, 4, 5].map { .milliseconds($0) })
        #expect(attempts.values.map(\.status) == [500, 502, 503, 504])
        #expect(attempts.values.map(\.retryAfter) == [.milliseconds(2), .milliseconds(4), .milliseconds(5), nil])
        #expect(report.stopped == .gaveUp(batch: 1, .attemptsMade(4)))
        #expect(report.kept == 3 && report.sent == 0 && !report.isClean)
        #expect(try queue.pending().count == 3)
        #expect(try server.recorded().isEmpty)
    }

    @Test func theEndpointTakesV1EventsAndRefusesWhatIsNotABaseURL() throws {
        #expect(try EventsEndpoint(validating: "https://api.example.com").url == "https://api.example.com/v1/events")
        #expect(try EventsEndpoint(validating: "https://127.0.0.1:8443/").url == "https://127.0.0.1:8443/v1/events")
        #expect(try EventsEndpoint(validating: "https://h/base//").url == "https://h/base/v1/events")
        for bad in ["http://api.example.com", "https://u@h", "https://h/?q", "https://h/#f", "ftp://h", "", "https:///x"] {
            #expect(throws: Outcome.self) { try EventsEndpoint(validating: bad) }
        }
    }

    @Test func theKeyNeverDescribesItself() throws {
        let key = try MobileKey(firstLineOf: "abc123\r\nsecond")
        #expect("\(key)" == "<mobile key>")
        #expect(String(describing: key) == "<mobile key>")
        #expect(throws: MobileKey.Problem.self) { try MobileKey(firstLineOf: "\nabc") }
        #expect(throws: MobileKey.Problem.self) { try MobileKey(firstLineOf: "a b") }
        #expect(throws: MobileKey.Problem.self) { try MobileKey(firstLineOf: "kéy") }
    }
}
