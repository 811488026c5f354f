import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The sent log: whole lines appended, a torn last line cut when it is opened again.
@Suite struct SentLogTests {
    static let event = Event(
        type: .opened, deliveryID: DeliveryID("01937b21-0000-7000-8000-000000000001")!, at: Timestamp(iso8601: "2026-08-20T09:16:44.120Z")!)

    @Test(arguments: [
        ("", 0, ""),
        ("{\"a\":1}\n", 0, "{\"a\":1}\n"),
        ("{\"a\":1}\n{\"type\":\"op", 11, "{\"a\":1}\n"),
        ("{\"type\":\"op", 11, ""),
    ])
    func aTornLastLineIsCut(before: String, cut: Int, after: String) throws {
        let work = TemporaryDirectory("sent-log")
        defer { work.remove() }
        let path = try work.write("sent.log", before)
        let log = try SentLog(appendingTo: path)
        #expect(log.cutBytes == cut)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == after)
        try log.append(
            [Self.event], postedAt: Timestamp(iso8601: "2026-08-20T10:00:00.000Z")!, sentAt: Timestamp(iso8601: "2026-08-20T10:00:00.250Z")!
        )
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text == after
                + #"{"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z","posted_at":"2026-08-20T10:00:00.000Z","sent_at":"2026-08-20T10:00:00.250Z"}"#
                + "\n")
        let line = try SentLogLine(parsing: Array(text.split(separator: "\n").last!.utf8))
        #expect(line.event == Self.event && line.sentAt == Timestamp(iso8601: "2026-08-20T10:00:00.250Z"))
    }

    @Test func aNewLogIsPrivate() throws {
        let work = TemporaryDirectory("sent-log-new")
        defer { work.remove() }
        _ = try SentLog(appendingTo: work.file("sent.log"))
        #expect(FileSystem.permissions(work.file("sent.log")).map { $0 & 0o777 } == 0o600)
    }

    @Test func aLongTornTailIsCutBackToTheLastNewline() throws {
        let work = TemporaryDirectory("sent-log-long")
        defer { work.remove() }
        let head = String(repeating: "{\"x\":1}\n", count: 2000)
        let path = try work.write("sent.log", head + String(repeating: "y", count: 10_000))
        let log = try SentLog(appendingTo: path)
        #expect(log.cutBytes == 10_000)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == head)
    }
}
