import CarillonTestSupport
import Foundation
import Testing

/// Issue 22: nothing a payload or a server sends reaches a person raw. Each character of the escaping
/// rule (C0, DEL, C1, bidi controls) goes through every field that reaches a human — title, body, keys,
/// delivery id, image URL, file name; a server's Location, Content-Type and reason phrase; an upload's
/// answer — and the bytes of `--format text`, of every command's standard error and of the report are
/// checked for it.
@Suite(.timeLimit(.minutes(5))) struct HostileTextTests {
    /// One of each class, and every C0 control a terminal acts on.
    static let characters: [UInt32] = [
        0x00, 0x07, 0x08, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A, 0x202E,
        0x2066, 0x2069,
    ]

    /// Whether the rule forbids `scalar` in text a person reads.
    static func forbidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x061C || value == 0x200E || value == 0x200F
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// The forbidden characters in terminal text, the newlines that end its lines aside.
    static func offending(_ text: String) -> [String] {
        text.unicodeScalars.filter { $0 != "\n" && forbidden($0) }.map { String($0.value, radix: 16) }
    }

    /// The characters HTML cannot hold (C0 but tab and newline, DEL, C1) anywhere in the page, and bidi
    /// controls in rendered text outside a `<bdi>` (an attribute's value is never rendered).
    static func offendingHTML(_ page: String) -> [String] {
        let unwritable = page.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        var outside = ""
        var rest = Substring(page.replacing(#/="[^"]*"/#, with: "=\"\""))
        while let open = rest.range(of: "<bdi>"), let close = rest[open.upperBound...].range(of: "</bdi>") {
            outside += rest[..<open.lowerBound]
            rest = rest[close.upperBound...]
        }
        outside += rest
        return (unwritable.map { $0 } + outside.unicodeScalars.filter { $0 != "\n" && $0 != "\t" && forbidden($0) })
            .map { String($0.value, radix: 16) }
    }

    /// `\uXXXX` for JSON.
    static func json(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// The two payloads of a character: every payload field holding it (a file named with it), and a
    /// clean one whose image is on the server route that answers with it.
    static func payloads(_ value: UInt32, in work: TemporaryDirectory) throws -> (hostile: String, server: String, name: String) {
        let c = json(value)
        // A file name cannot hold NUL or "/"; every other character is a name's byte.
        let name = value == 0 ? "a-nul.json" : "a" + String(Unicode.Scalar(value)!) + ".json"
        let hostile = try work.write(
            name,
            #"{"aps":{"alert":{"title":"T\#(c)itle","subtitle":"S\#(c)","body":"B\#(c)ody"},"mutable-content":1,"k\#(c)":1,"k\#(c)":2},"#
                + #""carillon":{"delivery_id":"id\#(c)x","image":"https://127.0.0.1:\#(TestServer.shared.port)/img/png?\#(c)"}}"#)
        let code = String(value, radix: 16)
        let server = try work.write(
            "b-server.json",
            Payloads.routed(image: TestServer.shared.url("/hostile/redirect?c=\(code)"), deliveryID: TestDeliveryID.text(7)))
        return (hostile, server, name)
    }

    @Test(arguments: characters)
    func processShowsEveryFieldEscapedInTextStderrAndTheReport(value: UInt32) async throws {
        let work = TemporaryDirectory("hostile-process")
        defer { work.remove() }
        let (hostile, server, name) = try Self.payloads(value, in: work)
        let report = work.file("report.html")
        let common = ["--ca-file", TestServer.shared.caFile, "--attachments", work.file("att"), "--budget", "5"]
        let text = try await tool(["process", "--format", "text", "--report", report] + common + [hostile, server])
        #expect(Self.offending(text.standardOutput).isEmpty, "stdout: \(Self.offending(text.standardOutput)) in \(text.standardOutput)")
        #expect(Self.offending(text.standardError).isEmpty, "stderr: \(Self.offending(text.standardError))")
        // Every field is there, escaped: the rule shows, it does not drop.
        #expect(text.standardOutput.contains("carillon.delivery_id 'id"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("duplicate key"), "\(text.standardOutput)")
        // libcurl refuses a NUL in a header line itself ("Nul byte in header"): no hop is read then.
        #expect(value == 0 || text.standardOutput.contains("hop 1: 302"), "\(text.standardOutput)")
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(Self.offendingHTML(page).isEmpty, "report: \(Self.offendingHTML(page))")
        #expect(page.contains("<bdi>T"), "the title is isolated")

        // JSON is unchanged: it carries the name exactly (issue 21), and every other field as JSON does.
        let lines = try await tool(["process"] + common + [hostile, server]).jsonLines
        #expect(lines.first?["payload"] as? String == work.file(name))
        #expect(lines.first?["payload_base64"] == nil)

        // The commands that queue events say "not a Carillon notification" or warn, quoting the id.
        let queue = work.file("q")
        for command in [["present", "--queue", queue, hostile], ["open", "--queue", queue, hostile]] {
            let run = try await tool(command)
            #expect(Self.offending(run.standardError).isEmpty, "\(command[0]): \(Self.offending(run.standardError))")
            #expect(run.standardError.contains("id"), "\(command[0]) names the id: \(run.standardError)")
        }
        let payloadText = try String(contentsOfFile: hostile, encoding: .utf8)
        let notifications = try work.write("delivered.jsonl", #"{"date":"2026-08-20T09:00:00.000Z","payload":\#(payloadText)}"# + "\n")
        let scan = try await tool(["scan", "--queue", queue, notifications])
        #expect(Self.offending(scan.standardError).isEmpty, "scan: \(Self.offending(scan.standardError))")
        #expect(scan.standardError.contains("id"), "\(scan.standardError)")
    }

    /// drain, batches and usage errors name files and arguments: each shown by the rule.
    @Test(arguments: characters.filter { $0 != 0 })
    func drainBatchesAndUsageErrorsShowNamesEscaped(value: UInt32) async throws {
        let work = TemporaryDirectory("hostile-names")
        defer { work.remove() }
        let c = String(Unicode.Scalar(value)!)
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        _ = try work.write("c/CarillonReceipts/r\(c).receipt", "not a receipt\(c)\n")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.standardError.contains("set aside"), "\(drain.standardError)")
        #expect(Self.offending(drain.standardError).isEmpty, "drain: \(Self.offending(drain.standardError))")
        let batches = try await tool(["batches", "--queue", work.file("no-queue\(c)")])
        #expect(batches.status != 0)
        #expect(Self.offending(batches.standardError).isEmpty, "batches: \(Self.offending(batches.standardError))")
        let usage = try await tool(["process", "--budget", "x\(c)"])
        #expect(usage.status == 64)
        #expect(Self.offending(usage.standardError).isEmpty, "usage: \(Self.offending(usage.standardError))")
    }

    /// An events API that answers with every character of the rule: the upload's lines on stderr show it
    /// escaped.
    @Test func uploadShowsTheAPIsAnswerEscaped() async throws {
        let work = TemporaryDirectory("hostile-upload")
        defer { work.remove() }
        let server = try EventsAPIServer()
        let id = TestDeliveryID.text(7)
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id))
        #expect(try await tool(["open", "--queue", work.file("queue"), payload]).status == 0)
        let answer = "refused" + Self.characters.filter { $0 != 0 }.map { String(Unicode.Scalar($0)!) }.joined() + "end"
        try server.script([["status": 400, "raw_body": answer]])
        let upload = try await UploadEndToEndTests.upload(server, work)
        #expect(upload.standardError.contains("1 set aside"), "\(upload.standardError)")
        #expect(Self.offending(upload.standardError).isEmpty, "upload: \(Self.offending(upload.standardError))")
        #expect(Self.offending(upload.standardOutput.replacingOccurrences(of: "\\", with: "")).isEmpty)
        // The answer is kept exactly where the set-aside batch says why; a person reads it through the
        // next command that reports the queue, which shows it by the rule.
        let batches = try await tool(["batches", "--queue", work.file("queue")])
        #expect(Self.offending(batches.standardError).isEmpty, "batches: \(Self.offending(batches.standardError))")
    }
}
