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

    /// What a bundle keeps of `line`, written as its `data` and read back as a merge reads it.
    static func kept(
        _ line: JSONValue, content: NotificationContent? = nil, read: Bool = true, request: RequestTally.Record? = nil,
        input: PayloadInput = .file("c.jsonl", named: true), attachment: Int? = nil
    ) throws -> BundledPayload {
        var payload = try #require(BundleRecord.payload(line: line, content: content, read: read, request: request, input: input))
        payload.attachment?.index = attachment
        let data = try JSONParser.parse(Array(JSONWriter.string(payload.json).utf8))
        let back = try #require(BundledPayload(data))
        #expect(back == payload, "a record's data reads back as written")
        return back
    }

    static func decode(
        _ payload: BundledPayload, line: JSONValue, whole: Bool, failOn: FailOn? = nil, report: Bool = true
    ) -> BundleRecord.Decoded? {
        BundleRecord.decode(
            payload, line: Array(JSONWriter.string(line).utf8), whole: whole, failOn: failOn, collectsReport: report,
            attachmentPath: { "bundle:\($0)" })
    }

    @Test func aRecordReadsBackAsTheTallyTookIt() throws {
        let attachments: JSONValue = [["file": nil, "type": "png", "bytes": .number("1234")]]
        let line = Self.line(
            reason: "attached", imageURL: "https://cdn.example/a", routed: true, attachments: attachments,
            trace: TraceJSON.value(Self.trace))
        let content = NotificationContent(payload: try Payload(bytes: Array(#"{"aps":{"alert":{"title":"T","body":"B"}}}"#.utf8)))
        let data = try Self.kept(line, content: content, attachment: 3)
        let decoded = try #require(Self.decode(data, line: line, whole: true, failOn: try FailOn.parse("fallback")))
        #expect(decoded.line == Array(JSONWriter.string(line).utf8), "the line, as printed")
        #expect(decoded.read && decoded.attachment == 3 && decoded.imageURL == "https://cdn.example/a")
        let record = decoded.record
        #expect(record.name == "c.jsonl:7" && record.outcome == Outcome(.attached, "why") && record.elapsedMilliseconds == 12.5)
        #expect(record.image == "https://cdn.example/a" && record.sharedWith == "c.jsonl:1" && record.trace == Self.trace)
        #expect(record.attachment?.path == "bundle:3" && record.attachment?.type == .png && record.attachment?.byteCount == 1234)
        #expect(record.verdict == .passed && record.receiptFailed)
        #expect(record.entry?.title == "T" && record.entry?.body == "B" && record.entry?.warnings == ["w1", "w2"])
        #expect(record.entry?.attachment?.path == "bundle:3" && record.entry?.trace == Self.trace)
        #expect(record.entry?.receipt == "failed" && record.entry?.delivered == .original)

        // Not whole: no parse of the line, no trace, a row's fields only; the rest the same.
        let light = try #require(Self.decode(data, line: line, whole: false, failOn: try FailOn.parse("fallback")))
        #expect(light.record.trace == nil && light.record.entry?.warnings == [] && light.record.entry?.payload == "c.jsonl:7")
        #expect(light.record.outcome == record.outcome && light.record.image == record.image && light.record.verdict == record.verdict)
        #expect(light.record.attachment?.byteCount == 1234 && light.record.receiptFailed && light.line == decoded.line)
    }

    /// A payload that is not routed names no image for the summary, but its URL still names JUnit's class;
    /// one that was not read is an error with no card but the plain one.
    @Test func unroutedAndUnreadRecordsKeepWhatTheRunKept() throws {
        let unroutedLine = Self.line(reason: "not-mutable", imageURL: "https://cdn.example/a", routed: false)
        let unrouted = try Self.kept(unroutedLine)
        let decoded = try #require(Self.decode(unrouted, line: unroutedLine, whole: false, report: false))
        #expect(decoded.record.image == nil && decoded.imageURL == "https://cdn.example/a" && decoded.record.entry == nil)
        #expect(decoded.record.verdict == .failure, "an image named and not attached fails without --fail-on")
        let unreadLine = Self.line(reason: "invalid-payload", imageURL: nil, routed: false)
        let unread = try Self.kept(unreadLine, read: false)
        let invalid = try #require(Self.decode(unread, line: unreadLine, whole: true))
        #expect(!invalid.read && invalid.record.verdict == .error && invalid.record.entry?.isNotification == false)
        #expect(BundledPayload(["payload": "x"]) == nil, "a record without its reason, detail and time")
        #expect(BundledPayload(["payload": "x", "read": true, "reason": "attached", "detail": "", "elapsed_ms": "1"]) == nil)
        #expect(Self.decode(unread, line: "not json", whole: true) == nil, "a line parsed and found wanting")
    }

    /// A request's counts and its `--fail-on` verdict come back from the bundle as the run took them, and
    /// where the payload came from decides what the merged tally counts as a payload file or a campaign.
    @Test(arguments: [
        (PayloadInput.file("c.jsonl", named: true), false, false),
        (PayloadInput.made(name: "https://cdn.example/a", bytes: []), false, true),
    ])
    func aRequestAndTheSourceComeBackAsTheRunTookThem(input: PayloadInput, fromLines: Bool, madeByTool: Bool) throws {
        let line = Self.line(reason: "attached", imageURL: "https://cdn.example/a", routed: true)
        let refused = RequestTally.Record(apnsReason: "BadCollapseId", refused: true, extensionRuns: true, notShown: false)
        let kept = try Self.kept(line, request: refused, input: input)
        let decoded = try #require(Self.decode(kept, line: line, whole: false, failOn: try FailOn.parse("apns-refused")))
        #expect(decoded.record.request == refused && decoded.record.verdict == .failure, "apns-refused fails its test case")
        #expect(!decoded.record.fromLines && !decoded.record.madeByTool, "a request is never a payload the tool made")
        let plain = try #require(Self.decode(try Self.kept(line, input: input), line: line, whole: false))
        #expect(plain.record.request == nil && plain.record.verdict == .passed)
        #expect(plain.record.fromLines == fromLines && plain.record.madeByTool == madeByTool)
    }
}
