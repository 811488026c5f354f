import CarillonTestSupport
import Foundation
import Testing

/// `check URL...` (SPEC §6b) run as a process against the local HTTPS server: each URL as the payload
/// Carillon's server sends, through process's pipeline, options, line, formats and exit statuses.
@Suite(.timeLimit(.minutes(2))) struct CheckEndToEndTests {
    @Test func aURLGoesThroughTheSamePipelineAsItsPayloadDoesInProcess() async throws {
        let work = TemporaryDirectory("check")
        defer { work.remove() }
        let server = TestServer.shared
        let url = server.url("/img/png")
        let checked = try await tool(["check", "--ca-file", server.caFile, "--attachments", work.file("a"), url])
        #expect(checked.status == 0, "\(checked.standardError)")
        let line = try #require(checked.jsonLines.first)
        #expect(checked.jsonLines.count == 1)
        #expect(line["payload"] as? String == url)
        #expect(line["reason"] as? String == "attached" && line["delivered"] as? String == "modified", "\(line)")
        #expect(line["receipt"] as? String == "none" && line["image_url"] as? String == url)

        // The same payload written as a file gives process the same line, but for its name and times.
        let payload = try work.write(
            "p.json",
            #"{"aps":{"alert":{"title":"carillon-nse check","body":"\#(url)"},"mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let processed = try await tool(["process", "--ca-file", server.caFile, "--attachments", work.file("a"), payload])
        let expected = try #require(processed.jsonLines.first)
        #expect(Array(line.keys).sorted() == Array(expected.keys).sorted())
        for key in ["routed", "reason", "detail", "delivered", "receipt", "warnings", "image_url"] {
            #expect(String(describing: line[key]) == String(describing: expected[key]), "\(key)")
        }
    }

    @Test func standardInputGivesOneURLALineAndTheStatusesAreProcesss() async throws {
        let work = TemporaryDirectory("check-stdin")
        defer { work.remove() }
        let server = TestServer.shared
        let good = server.url("/img/png")
        let missing = server.url("/status/404")
        let input = Data("\(good)\r\n\n  \(missing)  \nht tp://bad\n".utf8)
        let result = try await tool(
            ["check", "--ca-file", server.caFile, "--attachments", work.file("a"), "--fail-on", "http-status", "-"], input: input)
        #expect(result.jsonLines.map { $0["payload"] as? String } == [good, missing, "ht tp://bad"])
        #expect(result.jsonLines.map { $0["reason"] as? String } == ["attached", "http-status", "invalid-url"])
        #expect(result.status == 2, "--fail-on matched: \(result.standardError)")
        #expect(result.standardError.contains("summary: 3 payloads"))

        let junit = try await tool(["check", "--ca-file", server.caFile, "--attachments", work.file("a"), "--format", "junit", good])
        #expect(junit.status == 0 && junit.standardOutput.contains("<testsuite") && junit.standardOutput.contains(good))
    }

    @Test func aBadURLIsAnOutcomeAndNoURLIsAUsageError() async throws {
        let bad = try await tool(["check", "not a url"])
        #expect(bad.status == 0, "invalid-url is an outcome, exit 0 like process")
        #expect(bad.jsonLines.first?["reason"] as? String == "invalid-url")

        let none = try await tool(["check"])
        #expect(none.status == 64 && none.standardError.contains("check: no URL given"))
        let container = try await tool(["check", "--container", "/tmp", "https://127.0.0.1/x.png"])
        #expect(container.status == 64 && container.standardError.contains("unknown option '--container'"))
        let empty = try await tool(["check", "-"], input: Data("\n\n".utf8))
        #expect(empty.status == 1 && empty.standardError.contains("no payload found"))
    }
}
