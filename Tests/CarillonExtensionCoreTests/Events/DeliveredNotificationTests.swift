import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `DeliveredNotification.parse(line:)`: one line of the Notification Center scan's JSON Lines, from a table.
@Suite struct DeliveredNotificationTests {
    static let stamp = #"{"carillon":{"delivery_id":"01937b21-0000-7000-8000-00000000002a"}}"#

    /// Lines that read as a notification: the line, its date, how many warnings.
    static let accepted: [(String, String, Int)] = [
        (#"{"date":"2026-08-20T09:16:44.120Z","payload":\#(stamp)}"#, "2026-08-20T09:16:44.120Z", 0),
        // An offset is applied; fewer fraction digits are milliseconds all the same.
        (#"{"date":"2026-08-20T11:16:44.1+02:00","payload":\#(stamp)}"#, "2026-08-20T09:16:44.100Z", 0),
        // Members in any order, unknown ones ignored, whitespace around.
        (#"  {"identifier":"x","payload":\#(stamp),"date":"2026-08-20T09:16:44Z"}  "#, "2026-08-20T09:16:44.000Z", 0),
        // A CRLF file's line.
        ("{\"date\":\"2026-08-20T09:16:44Z\",\"payload\":{}}\r", "2026-08-20T09:16:44.000Z", 0),
        // A payload without a stamp is still a notification (the scan says it queues nothing).
        (#"{"date":"2026-08-20T09:16:44Z","payload":{"aps":{"alert":"Hi"}}}"#, "2026-08-20T09:16:44.000Z", 0),
        // A byte order mark (the first line of a file written by some editors).
        ("\u{FEFF}{\"date\":\"2026-08-20T09:16:44Z\",\"payload\":{}}", "2026-08-20T09:16:44.000Z", 1),
        // Duplicate keys inside the payload: a warning, the last one used, as for a payload file.
        (#"{"date":"2026-08-20T09:16:44Z","payload":{"carillon":{"delivery_id":"a","delivery_id":"b"}}}"#, "2026-08-20T09:16:44.000Z", 1),
    ]

    @Test(arguments: accepted)
    func readsANotification(line: String, date: String, warnings: Int) throws {
        guard case .notification(let notification) = DeliveredNotification.parse(line: Array(line.utf8)) else {
            Issue.record("refused: \(DeliveredNotification.parse(line: Array(line.utf8)))")
            return
        }
        #expect(notification.date.iso8601 == date)
        #expect(notification.userInfo.isObject)
        #expect(notification.warnings.count == warnings, "\(notification.warnings)")
    }

    @Test func theLastDuplicateKeyInsideThePayloadIsUsed() {
        let line =
            #"{"date":"2026-08-20T09:16:44Z","payload":{"carillon":{"delivery_id":"x"},"carillon":\#(Self.stamp.dropFirst(12).dropLast())}}"#
        guard case .notification(let notification) = DeliveredNotification.parse(line: Array(line.utf8)) else {
            Issue.record("refused")
            return
        }
        #expect(CarillonStamp(userInfo: notification.userInfo).deliveryID == TestDeliveryID.make(0x2a))
        #expect(notification.warnings == ["payload: duplicate key 'carillon'; the last one is used"])
    }

    static let blank = ["", " ", "\t  ", "\r", " \t\r"]

    @Test(arguments: blank)
    func blankLinesAreSkipped(line: String) {
        #expect(DeliveredNotification.parse(line: Array(line.utf8)) == .blank)
    }

    /// Lines refused: the line and what the message must say.
    static let refused: [(String, String)] = [
        ("{", "not valid JSON"),
        ("nope", "not valid JSON"),
        ("\u{0}", "not valid JSON"),
        ("[1]", "the JSON value is an array, not an object"),
        ("\"x\"", "the JSON value is a string, not an object"),
        (#"{"payload":{}}"#, #"no "date" member"#),
        (#"{"date":"2026-08-20T09:16:44Z"}"#, #"no "payload" member"#),
        (#"{"date":1755681404120,"payload":{}}"#, #""date" is number, not an ISO 8601 string"#),
        (#"{"date":null,"payload":{}}"#, #""date" is null"#),
        (#"{"date":"2026-08-20 09:16:44","payload":{}}"#, "is not an ISO 8601 time"),
        (#"{"date":"2026-08-20T09:16:44","payload":{}}"#, "is not an ISO 8601 time"),  // no offset: local time is ambiguous
        (#"{"date":"2026-02-30T09:16:44Z","payload":{}}"#, "is not an ISO 8601 time"),
        (#"{"date":"2026-08-20T09:16:44.1234Z","payload":{}}"#, "is not an ISO 8601 time"),
        (#"{"date":"2026-08-20T09:16:44Z","payload":"{}"}"#, #""payload" is string, not an object"#),
        (#"{"date":"2026-08-20T09:16:44Z","payload":[]}"#, #""payload" is array, not an object"#),
        (#"{"date":"2026-08-20T09:16:44Z","date":"2026-08-21T09:16:44Z","payload":{}}"#, #""date" is given more than once"#),
        (#"{"date":"2026-08-20T09:16:44Z","payload":{},"payload":\#(stamp)}"#, #""payload" is given more than once"#),
    ]

    @Test(arguments: refused)
    func refusesALine(line: String, why: String) {
        guard case .invalid(let message) = DeliveredNotification.parse(line: Array(line.utf8)) else {
            Issue.record("accepted: \(line)")
            return
        }
        #expect(message.contains(why), "\(message)")
    }

    @Test func aLineOverTheLimitIsNotParsed() {
        let filler = String(repeating: " ", count: DeliveredNotification.maximumLineBytes)
        let line = #"{"date":"2026-08-20T09:16:44Z","payload":{}}"# + filler
        #expect(
            DeliveredNotification.parse(line: Array(line.utf8))
                == .invalid("line is \(line.utf8.count) bytes, over the \(DeliveredNotification.maximumLineBytes)-byte limit; not read"))
        // Exactly at the limit is read.
        let exact = String(line.prefix(DeliveredNotification.maximumLineBytes))
        guard case .notification = DeliveredNotification.parse(line: Array(exact.utf8)) else {
            Issue.record("a line of exactly the limit was refused")
            return
        }
    }
}
