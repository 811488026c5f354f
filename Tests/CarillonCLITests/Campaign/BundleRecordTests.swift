@_spi(Tooling) import CarillonExtensionCore
import Testing

@_spi(Tooling) @testable import CarillonCLI

/// What a bundle keeps of a payload, read back as the merge reads it: the trace from its line (to the
/// thousandth of a millisecond the line prints), and the record an unsharded run's tally would take.
@Suite struct BundleRecordTests {
    static let trace = DownloadTrace(
        hops: [
            .init(
                url: "https://cdn.example/a", status: 302, httpVersion: "2", remote: "127.0.0.1:443", location: "/b",
                contentType: "text/html", contentLength: 0, tls: .init(version: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256"),
                wireBytes: 10, decodedBytes: 10, timings: .init(dns: 0.5, connect: 1.25, tls: 3.125, firstByte: 4, total: 4.5)),
            .init(
                url: "https://cdn.example/b", status: 200, httpVersion: "2", remote: "127.0.0.1:443", contentType: "image/png",
                contentLength: 1234, contentEncoding: "gzip", wireBytes: 900, decodedBytes: 1234,
                timings: .init(dns: nil, connect: nil, tls: nil, firstByte: 1.5, total: 2.25)),
        ],
        requestHeaders: [.init(name: "User-Agent", value: "UA"), .init(name: "Accept", value: "*/*")], bodyBytes: 1234,
        budget: .seconds(20), phase: .done, image: .init(type: .png, width: 16, height: 12, frames: 1))

    @Test func aTraceReadsBackFromItsLine() {
        #expect(TraceJSON.decode(TraceJSON.value(Self.trace)) == Self.trace)
        #expect(TraceJSON.decode(.null) == nil)
        #expect(TraceJSON.decode(["hops": "not an array"]) == nil)
    }

    static func line(reason: String, imageURL: JSONValue, routed: Bool, attachments: JSONValue = .array([]), trace: JSONValue = .null)
        -> JSONValue
    {
        .object([
            (key: "payload", value: "c.jsonl:7"), (key: "routed", value: .bool(routed)), (key: "reason", value: .string(reason)),
            (key: "detail", value: "why"), (key: "delivered", value: "original"), (key: "delivery_id", value: nil),
            (key: "receipt", value: "failed"), (key: "attachments", value: attachments), (key: "elapsed_ms", value: .number("12.500")),
            (key: "warnings", value: ["w1", "w2"]), (key: "image_url", value: imageURL), (key: "trace", value: trace),
            (key: "shared_with", value: "c.jsonl:1"),
        ])
    }

    @Test func aRecordReadsBackAsTheTallyTookIt() throws {
        let attachments: JSONValue = [["file": nil, "type": "png", "bytes": .number("1234")]]
        let line = Self.line(
            reason: "attached", imageURL: "https://cdn.example/a", routed: true, attachments: attachments,
            trace: TraceJSON.value(Self.trace))
        let content = NotificationContent(payload: try Payload(bytes: Array(#"{"aps":{"alert":{"title":"T","body":"B"}}}"#.utf8)))
        let data = BundleRecord.adding(attachment: 3, to: BundleRecord.data(line: line, content: content, read: true))
        let decoded = try #require(
            BundleRecord.decode(data, failOn: try FailOn.parse("fallback"), collectsReport: true, attachmentPath: { "bundle:\($0)" }))
        #expect(decoded.line == line && decoded.read && decoded.attachment == 3 && decoded.imageURL == "https://cdn.example/a")
        let record = decoded.record
        #expect(record.name == "c.jsonl:7" && record.outcome == Outcome(.attached, "why") && record.elapsedMilliseconds == 12.5)
        #expect(record.image == "https://cdn.example/a" && record.sharedWith == "c.jsonl:1" && record.trace == Self.trace)
        #expect(record.attachment?.path == "bundle:3" && record.attachment?.type == .png && record.attachment?.byteCount == 1234)
        #expect(record.verdict == .passed && record.receiptFailed)
        #expect(record.entry?.title == "T" && record.entry?.body == "B" && record.entry?.warnings == ["w1", "w2"])
        #expect(record.entry?.attachment?.path == "bundle:3" && record.entry?.trace == Self.trace)
    }

    /// A payload that is not routed names no image for the summary, but its URL still names JUnit's class;
    /// one that was not read is an error with no card but the plain one.
    @Test func unroutedAndUnreadRecordsKeepWhatTheRunKept() throws {
        let unrouted = BundleRecord.data(
            line: Self.line(reason: "not-mutable", imageURL: "https://cdn.example/a", routed: false), content: nil, read: true)
        let decoded = try #require(BundleRecord.decode(unrouted, failOn: nil, collectsReport: false, attachmentPath: { "\($0)" }))
        #expect(decoded.record.image == nil && decoded.imageURL == "https://cdn.example/a" && decoded.record.entry == nil)
        #expect(decoded.record.verdict == .failure, "an image named and not attached fails without --fail-on")
        let unread = BundleRecord.data(line: Self.line(reason: "invalid-payload", imageURL: nil, routed: false), content: nil, read: false)
        let invalid = try #require(BundleRecord.decode(unread, failOn: nil, collectsReport: true, attachmentPath: { "\($0)" }))
        #expect(!invalid.read && invalid.record.verdict == .error && invalid.record.entry?.isNotification == false)
        #expect(BundleRecord.decode(["line": ["payload": "x"]], failOn: nil, collectsReport: false, attachmentPath: { "\($0)" }) == nil)
    }
}
