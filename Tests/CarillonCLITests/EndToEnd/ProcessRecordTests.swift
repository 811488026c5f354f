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
        #expect(Array(line.keys).count == 14)
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

    @Test(arguments: [false, true])
    func secretsAreRedactedEverywhereUnlessKept(keep: Bool) async throws {
        let work = TemporaryDirectory("record-secrets")
        defer { work.remove() }
        let server = TestServer.shared
        let input = try Self.payload(
            work, "s.json", image: server.url("/img/png-set-cookie?c=SECRETCOOKIE42&token=SECRETQUERY42"), alert: "SECRETALERT42")
        let result = try await tool(
            [
                "process", "--ca-file", server.caFile, "--attachments", work.file("attachments"), "--header",
                "X-Api-Key: SECRETHEADER42", "--record", work.file("rec"), input,
            ] + (keep ? ["--record-keep-secrets"] : []))
        #expect(result.jsonLines.first?["reason"] as? String == "attached")
        let all = Self.everything(work.file("rec"))
        for secret in ["SECRETCOOKIE42-COOKIE", "SECRETQUERY42", "SECRETALERT42", "SECRETHEADER42"] {
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
