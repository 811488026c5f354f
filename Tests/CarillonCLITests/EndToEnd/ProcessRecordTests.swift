@_spi(Tooling) import CarillonExtensionCore
import CarillonTestSupport
import Foundation
import Testing

/// `process --record DIR` as a process against the local HTTPS server: HAR files that are valid HAR
/// 1.2, exact modes, secrets redacted everywhere, large bodies beside the file, usage errors.
@Suite(.timeLimit(.minutes(2))) struct ProcessRecordTests {
    static func mode(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int ?? 0) & 0o777
    }

    static func payload(_ directory: TemporaryDirectory, _ name: String, image: String, alert: String = "Hello") throws -> String {
        try directory.write(
            name, #"{"aps":{"alert":{"title":"\#(alert)"},"mutable-content":1},"carillon":{"image":"\#(image)"}}"#)
    }

    static func har(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// Every file under `directory`, concatenated, as text (bytes that are not UTF-8 dropped).
    static func everything(_ directory: String) -> String {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return files.compactMap { try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)) }
            .map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    }

    /// The entries of the HAR at `path`.
    static func entries(_ path: String) throws -> [[String: Any]] {
        try #require((try har(path)["log"] as? [String: Any])?["entries"] as? [[String: Any]])
    }

    /// The bytes `_carillon.wire` keeps (inline base64 or a file under `directory`), checked against
    /// its recorded size and SHA-256; nil when the entry keeps none.
    static func wireBytes(_ carillon: [String: Any], directory: String) throws -> [UInt8]? {
        guard let wire = carillon["wire"] as? [String: Any] else { return nil }
        let bytes: [UInt8]
        if let file = wire["_file"] as? String {
            #expect(file.hasPrefix("bodies/") && file.hasSuffix(".wire"))
            #expect(try mode(directory + "/" + file) == 0o600)
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file)))
        } else {
            #expect(wire["encoding"] as? String == "base64")
            let text = try #require(wire["text"] as? String)
            bytes = [UInt8](try #require(Data(base64Encoded: text)))
        }
        #expect(wire["bytes"] as? Int == bytes.count)
        #expect(wire["sha256"] as? String == SHA256.hex(bytes))
        return bytes
    }

    @Test(arguments: [
        ("/img/png", "attached"), ("/img/jpeg", "attached"), ("/img/gif-animated", "attached"), ("/redirect/relative", "attached"),
        ("/bad/html", "unsupported-type"), ("/bad/truncated-body", "network"), ("/enc/gzip", "attached"), ("/enc/zstd", "content-encoding"),
        ("/bad/content-length-conflict", "network"), ("/size/cap-plus-1", "too-large"), ("/bad/status-404-large", "http-status"),
        ("/redirect/to-http", "insecure-url"), ("/bad/empty", "empty-body"),
    ])
    func recordsEachKindOfRouteAsValidHAR(route: String, reason: String) async throws {
        let work = TemporaryDirectory("record")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url(route))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "5",
            "--record", work.file("rec"), input,
        ])
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == reason, "\(line["detail"] ?? "")")
        #expect(line["recording"] as? String == work.file("rec/p.har"))
        #expect(Array(line.keys).count == 15, "SPEC §6's fields, shared_with, request and recording")
        let har = try Self.har(work.file("rec/p.har"))
        #expect(HARChecker.problems(har) == [])
        let log = try #require(har["log"] as? [String: Any])
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(!entries.isEmpty)
        let carillon = try #require(log["_carillon"] as? [String: Any])
        #expect((carillon["verdict"] as? [String: Any])?["reason"] as? String == reason)
        #expect(try Self.mode(work.file("rec")) == 0o700)
        #expect(try Self.mode(work.file("rec/p.har")) == 0o600)
        if reason == "attached" {
            let content = try #require((entries.last?["response"] as? [String: Any])?["content"] as? [String: Any])
            #expect(content["encoding"] as? String == "base64")
            let connections = try #require(carillon["connections"] as? [[String: Any]])
            let chain = try #require((connections.first?["chain"] as? [String: Any])?["certs"] as? [String])
            #expect(!chain.isEmpty)
        }
    }

    /// `request.headers` is the request libcurl sent, read from its debug callback, not the
    /// configuration: the server's echo of what it received (the recorded body of `/echo/headers`) is
    /// the same list, in the same order, Host with its port included. Nothing of libcurl's verbose
    /// trace reaches standard error.
    @Test func theRequestHeadersAreTheOnesSent() async throws {
        let work = TemporaryDirectory("record-sent")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/echo/headers"))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--header",
            "X-Extra: one", "--record", work.file("rec"), input,
        ])
        #expect(result.jsonLines.first?["reason"] as? String == "unsupported-type")
        #expect(!result.standardError.contains("GET /") && !result.standardError.contains("* "), "\(result.standardError)")
        let entry = try #require(try Self.entries(work.file("rec/p.har")).last)
        let sent = try #require((entry["request"] as? [String: Any])?["headers"] as? [[String: String]]).map {
            [$0["name"] ?? "", $0["value"] ?? ""]
        }
        let content = try #require((entry["response"] as? [String: Any])?["content"] as? [String: Any])
        let text = try #require(content["text"] as? String)
        let body = try #require(Data(base64Encoded: text))
        let echo = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(sent == echo["raw"] as? [[String]])
        #expect(sent.map { $0[0] } == ["Host", "User-Agent", "Accept", "Accept-Language", "Accept-Encoding", "X-Extra"])
        #expect(sent.first?[1] == "127.0.0.1:\(TestServer.shared.port)")
        #expect(sent.contains(["Accept-Encoding", "gzip, deflate, br"]) && sent.contains(["Accept", "*/*"]))
        let userAgent = (result.jsonLines.first?["trace"] as? [String: Any]).flatMap { $0["request_headers"] as? [String: String] }
        #expect(sent.contains(["User-Agent", userAgent?["User-Agent"] ?? "?"]))
    }

    /// A redirect's entry has its own request as sent (its own path, the same fields).
    @Test func eachHopHasTheRequestItSent() async throws {
        let work = TemporaryDirectory("record-sent-hops")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/redirect/relative"))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--record", work.file("rec"),
            input,
        ])
        #expect(result.jsonLines.first?["reason"] as? String == "attached")
        let entries = try Self.entries(work.file("rec/p.har"))
        #expect(entries.count == 2)
        for entry in entries {
            let headers = try #require((entry["request"] as? [String: Any])?["headers"] as? [[String: String]])
            #expect(headers.map { $0["name"] ?? "" } == ["Host", "User-Agent", "Accept", "Accept-Language", "Accept-Encoding"])
        }
        // The final response's body had no coding and no chunking: no wire bytes beside it.
        #expect((entries.last?["_carillon"] as? [String: Any])?["wire"] is NSNull)
    }

    @Test(arguments: [false, true])
    func secretsAreRedactedEverywhereUnlessKept(keep: Bool) async throws {
        let work = TemporaryDirectory("record-secrets")
        defer { work.remove() }
        let server = TestServer.shared
        let input = try Self.payload(
            work, "s.json", image: server.url("/img/png-set-cookie?c=SECRETCOOKIE42&token=SECRETQUERY42"), alert: "SECRETALERT42")
        // Authorization and Cookie planted in the request too: the headers as sent carry them.
        let result = try await tool(
            [
                "process", "--ca-file", server.caFile, "--attachments", work.file("attachments"), "--header",
                "X-Api-Key: SECRETHEADER42", "--header", "Authorization: Bearer SECRETAUTH42", "--header",
                "Cookie: session=SECRETREQUESTCOOKIE42", "--record", work.file("rec"), input,
            ] + (keep ? ["--record-keep-secrets"] : []))
        #expect(result.jsonLines.first?["reason"] as? String == "attached")
        let all = Self.everything(work.file("rec"))
        let sent = try #require(
            (try Self.entries(work.file("rec/s.har")).last?["request"] as? [String: Any])?["headers"] as? [[String: String]])
        #expect(sent.contains { $0["name"] == "Authorization" } && sent.contains { $0["name"] == "Cookie" })
        for secret in [
            "SECRETCOOKIE42-COOKIE", "SECRETQUERY42", "SECRETALERT42", "SECRETHEADER42", "SECRETAUTH42", "SECRETREQUESTCOOKIE42",
        ] {
            #expect(all.contains(secret) == keep, "\(secret)")
        }
        #expect(result.standardError.contains("--record-keep-secrets") == keep)
        if !keep { #expect(all.contains("[redacted:") && all.contains("[redacted: 13 chars]")) }
    }

    @Test func aLargeBodyGoesToBodies() async throws {
        let work = TemporaryDirectory("record-large")
        defer { work.remove() }
        let input = try Self.payload(work, "big.json", image: TestServer.shared.url("/size/cap"))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--record", work.file("rec"),
            input,
        ])
        #expect(result.jsonLines.first?["reason"] as? String == "attached")
        let bodies = work.contents("rec/bodies")
        #expect(bodies.count == 1)
        let body = work.file("rec/bodies/\(try #require(bodies.first))")
        #expect((try FileManager.default.attributesOfItem(atPath: body)[.size]) as? Int == 10_485_760)
        #expect(try Self.mode(body) == 0o600)
        let har = try Self.har(work.file("rec/big.har"))
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let content = try #require((entries.last?["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(content["_file"] as? String == "bodies/\(bodies[0])")
        #expect(content["text"] == nil)
        // Written once (SPEC §7): the attachment's own file, hard-linked, not a second copy.
        let attachment = work.file("attachments/\(try #require(work.contents("attachments").first))")
        #expect(Self.inode(body) == Self.inode(attachment))
        #expect((try FileManager.default.attributesOfItem(atPath: body)[.referenceCount]) as? Int == 2)
    }

    /// `stat`'s device and inode of `path`.
    static func inode(_ path: String) -> [UInt64] {
        var info = stat()
        #expect(stat(path, &info) == 0, "\(path)")
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// A body linked to an attachment that lasts only for the run (no `--attachments`) outlives it: a
    /// hard link, never a symbolic one.
    @Test func aBodyLinkedToARunsAttachmentOutlivesTheRun() async throws {
        let work = TemporaryDirectory("record-run")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/size/n?bytes=300000"))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--record", work.file("rec"), "--record-inline", "1000", input,
        ])
        #expect(result.jsonLines.first?["reason"] as? String == "attached", "\(result.standardError)")
        let body = work.file("rec/bodies/\(try #require(work.contents("rec/bodies").first))")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: body)))
        #expect(bytes.count == 300_000)
        #expect(body.hasSuffix("/\(SHA256.hex(bytes)).jpg"))
        #expect(try FileManager.default.attributesOfItem(atPath: body)[.type] as? FileAttributeType == .typeRegular)
        #expect((try FileManager.default.attributesOfItem(atPath: body)[.referenceCount]) as? Int == 1)
        #expect(try Self.mode(body) == 0o600)
    }

    /// SPEC §7 (fifth round): a recording is evidence, not a receipt. Its files are never fsynced (before,
    /// the body, the HAR and their directories were), but each is renamed whole into place: a reader finds
    /// no file or the whole one, never a torn one. Without a container nothing of the run is fsynced.
    @Test func aRecordingIsRenamedWholeIntoPlaceAndNeverSynced() async throws {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("record-sync")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/size/n?bytes=300000"))
        let trace = work.file("trace")
        let run = try await onOwnThread {
            try Command.run(
                "/usr/bin/strace",
                [
                    "-f", "-qq", "-o", trace, "-e", "trace=fsync,fdatasync,sync_file_range,rename,link,linkat,renameat,renameat2",
                    Paths.tool, "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("a"),
                    "--record", work.file("rec"), "--record-inline", "1000", input,
                ])
        }
        #expect(run.status == 0, "\(run.standardError)")
        // "PID name(arguments) = result" (strace pads the PID): the call without its thread.
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map { line in
            String(line.drop { $0.isNumber }.drop { $0 == " " })
        }
        #expect(!calls.contains { $0.hasPrefix("fsync(") || $0.hasPrefix("fdatasync(") || $0.hasPrefix("sync_file_range(") }, "\(calls)")
        let body = try #require(work.contents("rec/bodies").first)
        for placed in [work.file("rec/p.har"), work.file("rec/bodies/\(body)")] {
            #expect(
                calls.contains { $0.hasPrefix("rename(") && $0.contains("/.tmp-") && $0.contains("\"\(placed)\")") }, "\(placed): \(calls)")
        }
        #expect(work.contents("rec").filter { $0.hasPrefix(".tmp-") }.isEmpty && work.contents("rec/bodies").count == 1)
    }

    @Test(arguments: ["--container", "--attachments"])
    func aRecordingInsideTheContainerOrTheAttachmentsIsAUsageError(option: String) async throws {
        let work = TemporaryDirectory("record-usage")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/img/png"))
        let result = try await tool([
            "process", "--container", work.file("c"), "--attachments", work.file("a"), "--record",
            work.file(option == "--container" ? "c/rec" : "a/rec"), input,
        ])
        #expect(result.status == 64)
        #expect(result.standardError.contains("--record") && result.standardError.contains(option), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aSharedDownloadsOtherPayloadPointsToTheFirstsFile() async throws {
        let work = TemporaryDirectory("record-shared")
        defer { work.remove() }
        let image = TestServer.shared.url("/img/png")
        let first = try Self.payload(work, "a.json", image: image)
        let second = try Self.payload(work, "b.json", image: image)
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--record", work.file("rec"),
            first, second,
        ])
        let lines = result.jsonLines
        #expect(lines.count == 2)
        #expect(lines.map { $0["recording"] as? String } == [work.file("rec/a.har"), work.file("rec/b.har")])
        #expect(lines[1]["shared_with"] as? String == first)
        let log = try #require(try Self.har(work.file("rec/b.har"))["log"] as? [String: Any])
        #expect((log["entries"] as? [Any])?.isEmpty == true)
        #expect((log["_carillon"] as? [String: Any])?["shared_with"] as? String == "a.har")
        #expect(HARChecker.problems(try Self.har(work.file("rec/b.har"))) == [])
    }

    @Test func withoutRecordTheLineHasNoRecordingField() async throws {
        let work = TemporaryDirectory("record-none")
        defer { work.remove() }
        let input = try Self.payload(work, "p.json", image: TestServer.shared.url("/img/png"))
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), input,
        ])
        #expect(result.jsonLines.first?["recording"] == nil)
        #expect(result.jsonLines.first?["reason"] as? String == "attached")
    }

    @Test func unsharedDownloadsOfOneImageEachGetTheirOwnRecordingAndLeaveNoTemporaryFile() async throws {
        let work = TemporaryDirectory("record-unshared")
        defer { work.remove() }
        let image = TestServer.shared.url("/img/png")
        let first = try Self.payload(work, "a.json", image: image)
        let second = try Self.payload(work, "b.json", image: image)
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--no-share", "--jobs", "2",
            "--record", work.file("rec"), first, second,
        ])
        #expect(result.jsonLines.map { $0["reason"] as? String } == ["attached", "attached"])
        for name in ["a", "b"] {
            let log = try #require(try Self.har(work.file("rec/\(name).har"))["log"] as? [String: Any])
            #expect((log["entries"] as? [Any])?.count == 1)
        }
        #expect(work.contents("rec/bodies") == [])
        #expect(Set(work.contents("rec")) == ["a.har", "b.har", "bodies"])
    }
}
