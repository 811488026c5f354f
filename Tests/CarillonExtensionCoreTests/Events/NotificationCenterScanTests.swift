import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `NotificationCenterScan`: splitting the input into numbered lines, and queueing `received` for the
/// stamped notifications still delivered.
@Suite struct NotificationCenterScanTests {
    static func line(_ n: Int, date: String) -> String {
        #"{"date":"\#(date)","payload":{"carillon":{"delivery_id":"\#(TestDeliveryID.make(n).rawValue)"}}}"#
    }

    /// Input text and what each line must be: (number, "n" for a notification / "b" blank / "x" invalid).
    static let splits: [(String, [String])] = [
        ("", []),
        ("\n", ["1b"]),
        ("\n\n", ["1b", "2b"]),
        (line(1, date: "2026-08-20T09:16:44Z"), ["1n"]),  // no final newline
        (line(1, date: "2026-08-20T09:16:44Z") + "\n", ["1n"]),
        (line(1, date: "2026-08-20T09:16:44Z") + "\r\n\r\n" + line(2, date: "2026-08-20T09:16:44Z") + "\r\n", ["1n", "2b", "3n"]),
        ("{\n" + line(1, date: "2026-08-20T09:16:44Z"), ["1x", "2n"]),  // a pretty-printed object is not JSON Lines
        ("junk\n\n" + line(1, date: "2026-08-20T09:16:44Z") + "\nmore junk", ["1x", "2b", "3n", "4x"]),
    ]

    @Test(arguments: splits)
    func splitsIntoNumberedLines(input: String, expected: [String]) {
        let lines = NotificationCenterScan.lines(Array(input.utf8)).map { numbered -> String in
            switch numbered.line {
            case .blank: return "\(numbered.number)b"
            case .notification: return "\(numbered.number)n"
            case .invalid: return "\(numbered.number)x"
            }
        }
        #expect(lines == expected)
    }

    static func notifications(_ text: String) -> [(line: Int, notification: DeliveredNotification)] {
        NotificationCenterScan.lines(Array(text.utf8)).compactMap { numbered in
            guard case .notification(let notification) = numbered.line else { return nil }
            return (numbered.number, notification)
        }
    }

    @Test func queuesStampedNotificationsInDeliveryDateOrderAndReportsInInputOrder() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let input = [
            Self.line(3, date: "2026-08-20T09:00:03Z"),
            #"{"date":"2026-08-20T09:00:00Z","payload":{"aps":{"alert":"no stamp"}}}"#,
            Self.line(1, date: "2026-08-20T09:00:01Z"),
            // The same delivery twice: the earlier date wins, whatever the line order.
            Self.line(2, date: "2026-08-20T09:00:09Z"),
            Self.line(2, date: "2026-08-20T09:00:02Z"),
        ].joined(separator: "\n")
        var warnings: [String] = []
        let entries = NotificationCenterScan.scan(Self.notifications(input), into: queue, warnings: &warnings)
        #expect(entries.map(\.line) == [1, 2, 3, 4, 5])
        #expect(entries.map(\.received.code) == ["received", "none", "received", "duplicate", "received"])
        #expect(
            entries.map(\.received.deliveryID) == [
                TestDeliveryID.make(3), nil, TestDeliveryID.make(1), TestDeliveryID.make(2), TestDeliveryID.make(2),
            ])
        let pending = try queue.pending()
        #expect(pending.map(\.deliveryID) == [TestDeliveryID.make(1), TestDeliveryID.make(2), TestDeliveryID.make(3)])
        #expect(pending.map(\.at.iso8601) == ["2026-08-20T09:00:01.000Z", "2026-08-20T09:00:02.000Z", "2026-08-20T09:00:03.000Z"])
        #expect(pending.allSatisfy { $0.type == .received })

        // A second scan (the app activated again) finds everything queued.
        let again = NotificationCenterScan.scan(Self.notifications(input), into: queue, warnings: &warnings)
        #expect(again.map(\.received.code) == ["duplicate", "none", "duplicate", "duplicate", "duplicate"])
        #expect(try queue.pending() == pending)
        #expect(warnings.isEmpty)
    }

    @Test func anEarlierSourceKeepsItsTime() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let first = Event(type: .received, deliveryID: TestDeliveryID.make(1), at: ReceiptsFixture.time)
        #expect(try queue.enqueue(first))
        // An opened event for the same delivery is another (type, id): it does not hide the received one.
        #expect(try queue.enqueue(Event(type: .opened, deliveryID: TestDeliveryID.make(2), at: ReceiptsFixture.time)))
        var warnings: [String] = []
        let entries = NotificationCenterScan.scan(
            Self.notifications(Self.line(1, date: "2026-08-20T08:00:00Z") + "\n" + Self.line(2, date: "2026-08-20T08:00:00Z")),
            into: queue, warnings: &warnings)
        #expect(entries.map(\.received.code) == ["duplicate", "received"])
        #expect(
            try queue.pending().filter { $0.type == .received }.map(\.at) == [
                ReceiptsFixture.time, Timestamp(iso8601: "2026-08-20T08:00:00Z")!,
            ])
    }

    @Test func moreThanAChunkIsQueuedWhole() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"))
        let count = ReceiptDrain.chunkSize * 2 + 5
        let input = (1...count).map { Self.line($0, date: ReceiptsFixture.time.adding(.milliseconds(Int64($0))).iso8601) }.joined(
            separator: "\n")
        var warnings: [String] = []
        let entries = NotificationCenterScan.scan(Self.notifications(input), into: queue, warnings: &warnings)
        #expect(entries.count == count && entries.allSatisfy { $0.received.code == "received" })
        #expect(try queue.pending().map(\.deliveryID) == (1...count).map { TestDeliveryID.make($0) })
    }

    @Test func aLockHeldElsewhereFailsEveryNotificationAfterOneWait() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let queue = try EventQueue(directory: scratch.file("queue"), lockWait: .milliseconds(50))
        let holder = try EventQueue(directory: scratch.file("queue"))
        let count = ReceiptDrain.chunkSize + 1
        let input = (1...count).map { Self.line($0, date: "2026-08-20T08:00:00Z") }.joined(separator: "\n")
        var warnings: [String] = []
        let start = ContinuousClock.now
        let entries = try holder.records.withLock(until: .now + .seconds(5)) { () throws(FileSystemError) in
            NotificationCenterScan.scan(Self.notifications(input), into: queue, warnings: &warnings)
        }
        #expect(ContinuousClock.now - start < .seconds(2), "one bounded wait, not one per chunk")
        #expect(entries.count == count)
        for entry in entries {
            guard case .failed(_, let error) = entry.received else {
                Issue.record("expected failed, got \(entry.received)")
                continue
            }
            #expect(error.isLockTimeout)
        }
        #expect(try queue.pending().isEmpty)
    }
}
