@_spi(Tooling) import CarillonExtensionCore
import Testing

/// The verdict for one sent event, from a table: the sent-log line, the delivery as read, earlier lines.
@Suite struct ReadbackVerdictTests {
    static let id = DeliveryID("01937b21-0000-7000-8000-000000000001")!
    static func t(_ text: String) -> Timestamp { Timestamp(iso8601: text)! }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var type: EventType = .opened
        var at: String
        var posted: String? = "2026-08-20T10:00:00.000Z"
        var sent = "2026-08-20T10:00:01.000Z"
        /// nil: the delivery is not in the sampled list.
        var listed = true
        var stored: String?
        var reported: String? = nil
        var earlier: [String] = []
        var expected: ReadbackVerdict
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "the at sent is held", at: "2026-08-20T09:16:44.120Z", stored: "2026-08-20T09:16:44.120Z", expected: .recorded),
        Case(name: "null: lost", at: "2026-08-20T09:16:44.120Z", stored: nil, expected: .missing),
        Case(name: "not in the list", at: "2026-08-20T09:16:44.120Z", listed: false, stored: nil, expected: .notSampled),
        Case(name: "another time", at: "2026-08-20T09:16:44.120Z", stored: "2026-08-20T09:16:44.121Z", expected: .differs),
        // The clock rule, both ways: a future at, an at over 30 days old, replaced by the moment of receipt.
        Case(name: "future at → receipt", at: "2026-08-21T00:00:00.000Z", stored: "2026-08-20T10:00:00.500Z", expected: .substituted),
        Case(name: "old at → receipt", at: "2026-07-01T00:00:00.000Z", stored: "2026-08-20T10:00:00.500Z", expected: .substituted),
        // ...and only within the request's window.
        Case(
            name: "future at, stored after the 2xx", at: "2026-08-21T00:00:00.000Z", stored: "2026-08-20T10:00:01.001Z", expected: .differs),
        Case(
            name: "future at, stored before the post", at: "2026-08-21T00:00:00.000Z", stored: "2026-08-20T09:59:59.999Z",
            expected: .differs),
        // The 30-day edge: exactly 30 days before the receipt is kept; so a stored receipt time 30 days after
        // at cannot be the rule's; one millisecond more is.
        Case(name: "exactly 30 days old is kept", at: "2026-07-21T10:00:00.500Z", stored: "2026-08-20T10:00:00.500Z", expected: .differs),
        Case(
            name: "30 days and 1 ms is replaced", at: "2026-07-21T10:00:00.499Z", stored: "2026-08-20T10:00:00.500Z", expected: .substituted
        ),
        Case(
            name: "exactly 30 days old, held as sent", at: "2026-07-21T10:00:00.500Z", stored: "2026-07-21T10:00:00.500Z",
            expected: .recorded),
        // First report wins.
        Case(
            name: "an earlier line's at", at: "2026-08-20T09:30:00.000Z", stored: "2026-08-20T09:16:44.120Z",
            earlier: ["2026-08-20T09:16:44.120Z"], expected: .superseded),
        Case(
            name: "received heard before this post", type: .received, at: "2026-08-20T09:30:00.000Z", stored: "2026-08-20T09:16:44.120Z",
            reported: "2026-08-20T09:20:00.000Z", expected: .superseded),
        Case(
            name: "received heard during this post: not an earlier report", type: .received, at: "2026-08-20T09:30:00.000Z",
            stored: "2026-08-20T09:16:44.120Z", reported: "2026-08-20T10:00:00.500Z", expected: .differs),
        Case(
            name: "received after an offline period", type: .received, at: "2026-08-20T07:00:00.000Z", stored: "2026-08-20T07:00:00.000Z",
            reported: "2026-08-20T10:00:00.500Z", expected: .recorded),
        // A line without posted_at (the four members SPEC §10 names): the window is "up to the 2xx".
        Case(name: "no posted_at", at: "2026-08-21T00:00:00.000Z", posted: nil, stored: "2026-08-20T10:00:00.000Z", expected: .substituted),
    ])
    func verdicts(_ c: Case) {
        let line = SentLogLine(
            event: Event(type: c.type, deliveryID: Self.id, at: Self.t(c.at)), postedAt: c.posted.map(Self.t), sentAt: Self.t(c.sent))
        let stored = c.stored.map(Self.t)
        let delivery =
            c.listed
            ? DeliveryView(
                id: Self.id.rawValue, deviceID: "d", status: "sent", errorCode: nil, openedAt: c.type == .opened ? stored : nil,
                receivedAt: c.type == .received ? stored : nil, receivedReportedAt: c.reported.map(Self.t)) : nil
        let earlier = c.earlier.map {
            SentLogLine(
                event: Event(type: c.type, deliveryID: Self.id, at: Self.t($0)), postedAt: nil, sentAt: Self.t("2026-08-20T09:17:00.000Z"))
        }
        #expect(ReadbackVerdict.judge(line, delivery: delivery, earlier: earlier) == c.expected)
    }

    @Test func onlyMissingAndDiffersFail() {
        #expect(ReadbackVerdict.allCases.filter(\.isFailure) == [.missing, .differs])
    }

    @Test(
        arguments: [
            (
                #"{"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z","sent_at":"2026-08-20T10:00:00.000Z"}"#,
                nil
            ),
            (
                #"{"type":"seen","delivery_id":"01937b21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z","sent_at":"2026-08-20T10:00:00.000Z"}"#,
                "type is not received or opened"
            ),
            (
                #"{"type":"opened","delivery_id":"x","at":"2026-08-20T09:16:44.120Z","sent_at":"2026-08-20T10:00:00.000Z"}"#,
                "delivery_id is not a delivery id"
            ),
            (
                #"{"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z"}"#,
                "sent_at is not a timestamp"
            ),
            (
                #"{"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z","sent_at":"2026-08-20T10:00:00.000Z","posted_at":3}"#,
                "posted_at is not a timestamp"
            ),
            (#"{"type":"opened","delivery_id":"01937b21-00"#, "not JSON"),
            ("[]", "not a JSON object"),
        ] as [(String, String?)])
    func sentLogLines(text: String, problem: String?) {
        do {
            _ = try SentLogLine(parsing: Array(text.utf8))
            #expect(problem == nil)
        } catch {
            #expect(problem.map { error.message.hasPrefix($0) } == true, "\(error.message)")
        }
    }
}
