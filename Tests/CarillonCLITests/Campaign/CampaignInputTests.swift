import CarillonTestSupport
import Foundation
import Testing

/// JSON Lines in and --shard, through the built tool: names, exit status, edge cases, coverage.
@Suite(.timeLimit(.minutes(2))) struct CampaignInputTests {
    static let payload = #"{"aps":{"alert":"Hello","mutable-content":1}}"#

    @Test func aJSONLinesFileWithEveryOddityGivesOneLinePerPayload() async throws {
        let work = TemporaryDirectory("jsonl-edges")
        defer { work.remove() }
        // 1 BOM + CRLF, 2 blank, 3 a 1 MB line, 4 not JSON, 5 an array, 6 spaces, 7 torn (no final newline).
        let big = #"{"aps":{"alert":"Big","mutable-content":1},"pad":""# + String(repeating: "p", count: 1_000_000) + #""}"#
        var bytes = Data([0xEF, 0xBB, 0xBF]) + Data((Self.payload + "\r\n").utf8)
        bytes += Data("\r\n".utf8) + Data((big + "\n").utf8) + Data("not json\n[1]\n   \n".utf8)
        bytes += Data(#"{"aps":{"alert":"Last"}}"#.utf8)
        try bytes.write(to: URL(fileURLWithPath: work.file("c.jsonl")))
        let result = try await tool(["process", "--attachments", work.file("a"), work.file("c.jsonl")])
        #expect(result.status == 1, "a bad line is a bad input: \(result.standardError)")
        let lines = result.jsonLines
        #expect(lines.map { $0["payload"] as? String } == [1, 3, 4, 5, 7].map { work.file("c.jsonl") + ":\($0)" })
        #expect(lines.map { $0["reason"] as? String } == ["no-image", "no-image", "invalid-payload", "invalid-payload", "not-mutable"])
        #expect(lines.allSatisfy { $0.keys.contains("shared_with") })
        #expect(result.standardError.contains("c.jsonl:4: not valid JSON"), "\(result.standardError)")
        #expect(result.standardError.contains("5 payloads"), "\(result.standardError)")
    }

    @Test func aLineOverTheLimitIsRefusedAloneAndStandardInputTakesLines() async throws {
        let input = Data((Self.payload + "\n" + String(repeating: " ", count: 1_100_000) + "{}\n" + Self.payload).utf8)
        let result = try await tool(["process", "--lines", "-"], input: input)
        #expect(result.status == 1)
        #expect(result.jsonLines.map { $0["payload"] as? String } == ["-:1", "-:2", "-:3"])
        let detail = result.jsonLines[1]["detail"] as? String ?? ""
        #expect(
            result.jsonLines[1]["reason"] as? String == "invalid-payload" && detail.contains("over the 1048576-byte limit"), "\(detail)")
    }

    /// N runs of --shard K/N together take every payload exactly once, files and lines alike.
    @Test(arguments: [1, 2, 7])
    func shardsCoverEveryPayloadOnce(count: Int) async throws {
        let work = TemporaryDirectory("shards")
        defer { work.remove() }
        try (1...23).map { _ in Self.payload }.joined(separator: "\n").write(
            toFile: work.file("b.jsonl"), atomically: true, encoding: .utf8)
        try Self.payload.write(toFile: work.file("a.json"), atomically: true, encoding: .utf8)
        try Self.payload.write(toFile: work.file("c.json"), atomically: true, encoding: .utf8)
        var all: [String] = []
        for index in 0..<count {
            let result = try await tool(["process", "--attachments", work.file("x"), "--shard", "\(index)/\(count)", work.path])
            #expect(result.status == 0, "\(result.standardError)")
            all += result.jsonLines.compactMap { $0["payload"] as? String }
        }
        let expected = [work.file("a.json")] + (1...23).map { work.file("b.jsonl") + ":\($0)" } + [work.file("c.json")]
        #expect(all.sorted() == expected.sorted())
        #expect(Set(all).count == all.count)
    }

    @Test(arguments: ["2/2", "-1/3", "1/0", "a/b", "1", "1/2/3", ""])
    func aBadShardIsAUsageError(value: String) async throws {
        let result = try await tool(["process", "--shard", value, "-"], input: Data(Self.payload.utf8))
        #expect(result.status == 64, "\(value): \(result.standardError)")
        #expect(result.standardError.contains("--shard"))
    }
}
