import CarillonTestSupport
import Foundation
import Testing

/// One download per distinct image, counted at the test server; each payload its own receipt, file and
/// expiry; the campaign summary parsed back; a kill -9 leaving no partial summary or report.
@Suite(.timeLimit(.minutes(2))) struct SharedDownloadTests {
    static func deliveryID(_ index: Int) -> String { "01937b21-0000-7000-8000-\(String(format: "%012d", index))" }

    static func write(_ lines: [String], to path: String) throws {
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func requests(_ server: TestServer) async throws -> [String: Int] {
        try await onOwnThread { try server.stats()["requests"] as? [String: Int] ?? [:] }
    }

    @Test func payloadsNamingOneImageShareOneRequestButEachGetsItsReceiptAndFile() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("shared")
        defer { work.remove() }
        let images = [
            server.url("/img/png"), server.url("/img/jpeg?campaign=1"), server.url("/bad/webp"), server.url("/img/jpeg?campaign=2"),
        ]
        let lines = (0..<32).map { Payloads.routed(image: images[$0 % 4], deliveryID: Self.deliveryID($0)) }
        try Self.write(lines, to: work.file("c.jsonl"))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("attachments"), "--container", work.file("container"),
            "--jobs", "4", "--summary", work.file("summary.json"), work.file("c.jsonl"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let requests = try await Self.requests(server)
        #expect(requests["/img/png"] == 1 && requests["/img/jpeg"] == 2 && requests["/bad/webp"] == 1, "\(requests)")
        let output = result.jsonLines
        #expect(output.count == 32)
        #expect(output.allSatisfy { $0["receipt"] as? String == "stored" }, "every payload stores its own receipt")
        #expect(Set(output.compactMap { $0["delivery_id"] as? String }).count == 32)
        var files: Set<String> = []
        for (index, line) in output.enumerated() {
            let name = work.file("c.jsonl") + ":\(index + 1)"
            #expect(line["payload"] as? String == name)
            let first = work.file("c.jsonl") + ":\(index % 4 + 1)"
            #expect(line["shared_with"] as? String == (index < 4 ? nil : first), "\(line)")
            #expect(line["trace"] is [String: Any], "a shared download's trace is the first payload's")
            let attachments = line["attachments"] as? [[String: Any]] ?? []
            if index % 4 == 2 {
                #expect(line["reason"] as? String == "unsupported-type" && attachments.isEmpty)
                continue
            }
            #expect(line["reason"] as? String == "attached" && attachments.count == 1)
            let file = attachments.first?["file"] as? String ?? ""
            files.insert(file)
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        #expect(files.count == 24, "each payload has its own attachment file")
        #expect(result.standardError.contains("4 distinct images"), "\(result.standardError)")
        // No file of the shared fetches is left beside the payloads' own.
        let left = try FileManager.default.contentsOfDirectory(atPath: work.file("attachments"))
        #expect(left.count == 24 && left.allSatisfy { $0.hasPrefix("image-") }, "\(left)")

        let summary =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work.file("summary.json")))) as? [String: Any]
        let totals = summary?["totals"] as? [String: Int]
        #expect(totals?["payloads"] == 32 && totals?["images"] == 4 && totals?["images_failed"] == 1, "\(totals ?? [:])")
        let entries = summary?["images"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["url"] as? String } == images)
        let webp = entries[2]
        #expect(webp["verdict"] as? String == "fail" && webp["reason"] as? String == "unsupported-type" && webp["payloads"] as? Int == 8)
        #expect((webp["first_payloads"] as? [String])?.first == work.file("c.jsonl") + ":3")
        #expect(entries[0]["type"] as? String == "png" && entries[0]["width"] is Int && entries[0]["bytes"] is Int)
        #expect((summary?["reasons"] as? [String: Int]) == ["attached": 24, "unsupported-type": 8])
    }

    @Test func noShareFetchesEveryPayloadsImage() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("no-share")
        defer { work.remove() }
        try Self.write(
            (0..<6).map { Payloads.routed(image: server.url("/img/gif"), deliveryID: Self.deliveryID($0)) }, to: work.file("c.jsonl"))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--jobs", "3", "--no-share", work.file("c.jsonl"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Self.requests(server)["/img/gif"] == 6)
        #expect(result.jsonLines.allSatisfy { $0["shared_with"] is NSNull && $0["reason"] as? String == "attached" })
    }

    /// The first payload's own expiry comes while the shared download is in flight: it is `expired`,
    /// while the download goes on and a later payload takes its verdict, with one request in all.
    @Test func anExpiryDuringASharedFetchIsThatPayloadsAlone() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("shared-expiry")
        defer { work.remove() }
        // About 1.2 s of body; each stalled payload between holds the run for one expiry (0.6 s).
        let slow = server.url("/trickle?bytes=300&interval=0.004")
        let stalls = (1...5).map { server.url("/stall/headers?seconds=30&n=\($0)") }
        let lines = [slow] + stalls + [slow]
        try Self.write(lines.enumerated().map { Payloads.routed(image: $1, deliveryID: Self.deliveryID($0)) }, to: work.file("c.jsonl"))
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--expire-after", "0.6", "--budget", "5",
            work.file("c.jsonl"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.jsonLines
        #expect(
            output.map { $0["reason"] as? String } == ["expired", "expired", "expired", "expired", "expired", "expired", "attached"],
            "\(result.standardOutput)")
        #expect((output.first?["elapsed_ms"] as? Double ?? 0) < 1100, "the first payload delivered at its own expiry")
        #expect(output.first?["shared_with"] is NSNull)
        #expect(output.last?["shared_with"] as? String == work.file("c.jsonl") + ":1")
        #expect(try await Self.requests(server)["/trickle"] == 1)
    }

    /// Expiry while waiting on (or running) a shared download keeps its trace and detail: under --jobs,
    /// each payload of a stalled image says the phase, host and bytes as --no-share does, and its trace
    /// shows where the download was, for the payload that started it and for those that wait on it.
    @Test(arguments: ["/stall/body?seconds=30", "/stall/headers?seconds=30"])
    func expiryDuringASharedDownloadKeepsItsTraceAndDetail(route: String) async throws {
        let server = TestServer.shared
        let work = TemporaryDirectory("shared-expiry")
        defer { work.remove() }
        let image = server.url(route + "&run=\(UUID().uuidString)")
        try Self.write((0..<4).map { Payloads.routed(image: image, deliveryID: Self.deliveryID($0)) }, to: work.file("c.jsonl"))
        var details: [[String]] = []
        for share in [true, false] {
            let result = try await tool(
                ["process", "--ca-file", server.caFile, "--jobs", "4", "--expire-after", "0.5", "--budget", "5"]
                    + (share ? [] : ["--no-share"]) + [work.file("c.jsonl")])
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.jsonLines
            #expect(lines.count == 4)
            for line in lines {
                #expect(line["reason"] as? String == "expired")
                let trace = line["trace"] as? [String: Any]
                let phase = route.contains("body") ? "body" : "waiting"
                #expect(trace?["phase"] as? String == phase, "\(line)")
                #expect((trace?["hops"] as? [Any])?.count == 1)
                #expect((line["elapsed_ms"] as? Double ?? 0) < 1500, "delivered at its own expiry")
            }
            details.append(lines.map { $0["detail"] as? String ?? "" })
        }
        let expected =
            route.contains("body")
            ? "time-will-expire arrived before the image was attached, while receiving the body from 127.0.0.1, after 100 body bytes"
            : "time-will-expire arrived before the image was attached, while waiting for the response head from 127.0.0.1, after 0 body bytes"
        #expect(details == [[String]](repeating: [String](repeating: expected, count: 4), count: 2))
    }

    /// A kill -9 in the middle of a campaign leaves neither a partial summary nor a partial report: they
    /// are written at the end, atomically; an older summary stays whole.
    @Test func aKillDuringACampaignLeavesNoPartialSummaryOrReport() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("campaign-kill")
        defer { work.remove() }
        let lines = (0..<80).map {
            Payloads.routed(image: server.url("/stall/headers?seconds=30&n=\($0)"), deliveryID: Self.deliveryID($0))
        }
        try Self.write(lines, to: work.file("c.jsonl"))
        try "{\"old\":true}\n".write(toFile: work.file("summary.json"), atomically: true, encoding: .utf8)
        let script = """
            "$0" process --ca-file "$1" --attachments "$2/a" --jobs 4 --expire-after 0.2 --summary "$2/summary.json" \
              --report "$2/report.html" "$2/c.jsonl" > "$2/out" 2>&1 &
            pid=$!; sleep 1.5; kill -9 $pid; wait $pid; echo "status $?"
            """
        let run = try await onOwnThread { try Command.run("/bin/sh", ["-c", script, Paths.tool, server.caFile, work.path]) }
        #expect(run.standardOutput.contains("status 137"), "killed mid-run: \(run.standardOutput)")
        let names = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(!names.contains("report.html") && !names.contains { $0.hasPrefix(".tmp-") }, "\(names)")
        #expect(try String(contentsOfFile: work.file("summary.json"), encoding: .utf8) == "{\"old\":true}\n")
    }

    /// Two shards' summaries merged say what one run over the whole campaign says.
    @Test func twoShardsSummariesMergeIntoTheWholeCampaigns() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("summary-merge")
        defer { work.remove() }
        let images = [server.url("/img/png"), server.url("/bad/webp"), server.url("/img/gif")]
        let lines = (0..<21).map { Payloads.routed(image: $0 % 7 == 6 ? nil : images[$0 % 3], deliveryID: Self.deliveryID($0)) }
        try Self.write(lines, to: work.file("c.jsonl"))
        func run(_ extra: [String], summary: String) async throws {
            let result = try await tool(
                ["process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--summary", work.file(summary)] + extra
                    + [work.file("c.jsonl")])
            #expect(result.status == 0, "\(result.standardError)")
        }
        try await run([], summary: "whole.json")
        try await run(["--shard", "0/2"], summary: "s0.json")
        try await run(["--shard", "1/2"], summary: "s1.json")
        let merged = try await tool(["summary", "merge", work.file("s0.json"), work.file("s1.json")])
        #expect(merged.status == 0, "\(merged.standardError)")
        let parse = { (data: Data) in try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:] }
        let whole = try parse(Data(contentsOf: URL(fileURLWithPath: work.file("whole.json"))))
        let both = try parse(Data(merged.standardOutput.utf8))
        #expect((both["totals"] as? [String: Int]) == (whole["totals"] as? [String: Int]))
        #expect((both["reasons"] as? [String: Int]) == (whole["reasons"] as? [String: Int]))
        #expect((both["shards"] as? [String]) == ["0/2", "1/2"])
        let counts = { (document: [String: Any]) in
            Dictionary(
                uniqueKeysWithValues: (document["images"] as? [[String: Any]] ?? []).map {
                    ($0["url"] as? String ?? "", "\($0["verdict"] ?? "") \($0["payloads"] ?? "")")
                })
        }
        #expect(counts(both) == counts(whole) && counts(whole).count == 3)
        let notASummary = try await tool(["summary", "merge", work.file("c.jsonl")])
        #expect(notASummary.status == 1)
    }
}
