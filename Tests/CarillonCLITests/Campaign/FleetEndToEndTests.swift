import CarillonTestSupport
import Foundation
import Testing

/// A campaign on a fleet, end to end (SPEC §6c): N processes started with a job runner's own variables,
/// `--shard auto --shard-by image --bundle`, then `merge`, compared with one unsharded run of the same
/// campaign — the lines, the summary, JUnit, the report and the exit status — and the distinct images
/// counted at the test server: each fetched once across the fleet.
@Suite(.timeLimit(.minutes(3))) struct FleetEndToEndTests {
    /// Every variable `--shard auto` reads, set empty (which it takes as unset): the test's own
    /// environment (a CI runner's) must not leak into the shards.
    static let noRunner = Dictionary(
        uniqueKeysWithValues: [
            "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
            "BUILDKITE_PARALLEL_JOB_COUNT", "JOB_COMPLETION_INDEX", "CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT",
            "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "TEST_SHARD_STATUS_FILE",
        ].map { ($0, "") })

    /// A small campaign: 13 distinct images (two of them broken, one a redirect, four URLs of the same
    /// bytes, the redirect's among them: the campaign's warning), most named by several payloads, two payloads without an image and
    /// one line that is no payload; then an APNs request that APNs refuses (a collapse id too long).
    static func campaign(_ server: TestServer, in work: TemporaryDirectory) throws -> (path: String, images: [String]) {
        var images = (0..<8).map { server.url(["/img/png", "/img/jpeg", "/img/gif", "/img/gif-animated"][$0 % 4] + "?i=\($0)") }
        images += [server.url("/bad/webp?i=8"), server.url("/status/404?i=9"), server.url("/redirect/relative?i=10")]
        images += [server.url("/img/tiny-png?i=11"), server.url("/img/png?i=12")]
        var lines: [String] = []
        for index in 0..<33 {
            let id = "01937b21-0000-7000-8000-\(String(format: "%012d", index))"
            lines.append(Payloads.routed(image: images[(index * 7) % images.count], deliveryID: id))
        }
        lines.insert(Payloads.routed(image: nil), at: 5)
        lines.insert("not a payload", at: 17)
        lines.insert(#"{"aps":{"alert":"not routed"},"carillon":{"image":"\#(images[0])"}}"#, at: 20)
        let path = work.file("campaign.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try Self.refusedRequest.write(toFile: work.file("refused.curl"), atomically: true, encoding: .utf8)
        return (path, images)
    }

    /// A curl command APNs refuses (BadCollapseId: one byte over 64), of a payload without an image.
    static let refusedRequest = """
        curl --http2 -H 'apns-topic: com.example.carillon-demo' -H 'apns-push-type: alert' \\
          -H 'apns-collapse-id: 0123456789012345678901234567890123456789012345678901234567890123X' \\
          -d '{"aps":{"alert":"Collapsed","mutable-content":1}}' https://api.push.apple.com/3/device/00fc13ad

        """

    /// The shards of one runner, run at once as a fleet would: each with its own index variables.
    static func fleet(
        _ count: Int, variables: (Int) -> [String: String], arguments: [String]
    ) async throws -> [Command.Result] {
        try await withThrowingTaskGroup(of: (Int, Command.Result).self) { group in
            for index in 0..<count {
                let environment = noRunner.merging(variables(index)) { $1 }
                let shardArguments = arguments.map { $0.replacingOccurrences(of: "{K}", with: String(index)) }
                group.addTask { (index, try await onOwnThread { try Command.run(Paths.tool, shardArguments, environment: environment) }) }
            }
            var results: [(Int, Command.Result)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Three runners, each with its own variables and way of saying N.
    static let runners: [(name: String, shard: String, variables: @Sendable (Int) -> [String: String])] = [
        ("GitLab", "auto", { ["CI_NODE_INDEX": String($0 + 1), "CI_NODE_TOTAL": "3"] }),
        ("Kubernetes", "auto/3", { ["JOB_COMPLETION_INDEX": String($0)] }),
        ("Bazel", "auto", { ["TEST_SHARD_INDEX": String($0), "TEST_TOTAL_SHARDS": "3", "TEST_SHARD_STATUS_FILE": "{STATUS}-\($0)"] }),
    ]

    @Test(arguments: runners.indices)
    func aFleetMergesIntoWhatOneUnshardedRunWrites(runner: Int) async throws {
        let (name, shard, variables) = Self.runners[runner]
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("fleet-\(name)")
        defer { work.remove() }
        let (path, images) = try Self.campaign(server, in: work)
        let campaign = [path, work.file("refused.curl")]
        let common = ["--ca-file", server.caFile, "--budget", "5"]

        let single = try await tool(
            ["process"] + common + ["--summary", work.file("one.json"), "--report", work.file("one.html")] + campaign)
        let singleJUnit = try await tool(["process"] + common + ["--format", "junit"] + campaign)
        #expect(single.status == 1 && singleJUnit.status == 1, "the line that is no payload: \(single.standardError)")
        _ = try await onOwnThread { try Curl.get(server.url("/stats/reset"), caFile: server.caFile) }

        let status = work.file("bazel-status")
        let shards = try await Self.fleet(
            3, variables: { variables($0).mapValues { $0.replacingOccurrences(of: "{STATUS}", with: status) } },
            arguments: ["process"] + common + ["--shard", shard, "--shard-by", "image", "--bundle", work.file("{K}.bundle")] + campaign)
        for (index, result) in shards.enumerated() {
            #expect(result.standardError.contains("bundle: \(work.file("\(index).bundle")) ("), "\(result.standardError)")
            #expect(result.standardError.contains(" ms): shard \(index)/3, "), "\(result.standardError)")
        }
        #expect(shards.map(\.status).sorted() == [0, 0, 1], "the shard of the line that is no payload exits 1")
        if name == "Bazel" {
            for index in 0..<3 { #expect(FileManager.default.fileExists(atPath: "\(status)-\(index)"), "Bazel's status file touched") }
        }
        // Each distinct image fetched once by the whole fleet (the redirect is two requests: itself and its target).
        let targets = try await onOwnThread { try server.stats()["targets"] as? [String: Int] ?? [:] }
        for image in images {
            let target = String(image.dropFirst(server.baseURL.count))
            #expect(targets[target] == 1, "\(target) fetched \(targets[target] ?? 0) times: \(targets)")
        }

        let bundles = (0..<3).map { work.file("\($0).bundle") }
        let merged = try await tool(
            ["merge", "--summary", work.file("merged.json"), "--report", work.file("merged.html")] + bundles.reversed())
        let mergedJUnit = try await tool(["merge", "--format", "junit", "--lines", work.file("lines.jsonl")] + bundles)
        #expect(merged.status == single.status && mergedJUnit.status == single.status, "\(merged.standardError)")
        #expect(try Self.lines(merged.standardOutput) == Self.lines(single.standardOutput))
        #expect(try String(contentsOfFile: work.file("lines.jsonl"), encoding: .utf8) == merged.standardOutput)
        #expect(try Self.summary(work.file("merged.json")) == Self.summary(work.file("one.json")))
        #expect(try Self.junit(mergedJUnit.standardOutput) == Self.junit(singleJUnit.standardOutput))
        #expect(try Self.report(work.file("merged.html")) == Self.report(work.file("one.html")))
        #expect(merged.standardError.contains("summary: 37 payloads:"), "\(merged.standardError)")
        // What the request came to, and the identical images, are said by the merge as by the one run.
        for said in ["1 request: 1 refused (1 BadCollapseId)", "warning: 4 distinct image URLs answered byte-identical png images"] {
            #expect(single.standardError.contains(said) && merged.standardError.contains(said), "\(said): \(merged.standardError)")
        }
    }

    /// The other runners' own variables, each on a campaign of three payloads without an image and a
    /// request APNs refuses, under `--fail-on apns-refused`: the merge exits 2 as the one run does, with
    /// its lines and its summary's requests.
    static let otherRunners: [(name: String, shard: String, variables: @Sendable (Int) -> [String: String])] = [
        ("CircleCI", "auto", { ["CIRCLE_NODE_INDEX": String($0), "CIRCLE_NODE_TOTAL": "2"] }),
        ("Buildkite", "auto", { ["BUILDKITE_PARALLEL_JOB": String($0), "BUILDKITE_PARALLEL_JOB_COUNT": "2"] }),
        ("Cloud Run", "auto", { ["CLOUD_RUN_TASK_INDEX": String($0), "CLOUD_RUN_TASK_COUNT": "2"] }),
        ("AWS Batch", "auto/2", { ["AWS_BATCH_JOB_ARRAY_INDEX": String($0)] }),
    ]

    @Test(arguments: otherRunners.indices)
    func everyRunnersFleetMergesWithItsRequests(runner: Int) async throws {
        let (name, shard, variables) = Self.otherRunners[runner]
        let work = TemporaryDirectory("fleet-\(name.replacingOccurrences(of: " ", with: "-"))")
        defer { work.remove() }
        try (0..<3).map { _ in Payloads.routed(image: nil) }.joined(separator: "\n").write(
            toFile: work.file("c.jsonl"), atomically: true, encoding: .utf8)
        try Self.refusedRequest.write(toFile: work.file("refused.curl"), atomically: true, encoding: .utf8)
        let inputs = [work.file("c.jsonl"), work.file("refused.curl")]
        let single = try await tool(["process", "--fail-on", "apns-refused", "--summary", work.file("one.json")] + inputs)
        #expect(single.status == 2, "\(single.standardError)")
        let shards = try await Self.fleet(
            2, variables: variables, arguments: ["process", "--shard", shard, "--bundle", work.file("{K}.bundle")] + inputs)
        #expect(shards.map(\.status) == [0, 0], "\(shards.map(\.standardError))")
        for (index, result) in shards.enumerated() {
            #expect(result.standardError.contains(" ms): shard \(index)/2, "), "\(name): \(result.standardError)")
        }
        let merged = try await tool(
            ["merge", "--fail-on", "apns-refused", "--summary", work.file("merged.json"), work.file("1.bundle"), work.file("0.bundle")])
        #expect(merged.status == 2, "\(merged.standardError)")
        #expect(try Self.lines(merged.standardOutput) == Self.lines(single.standardOutput))
        let summary = try Self.summary(work.file("merged.json"))
        #expect(summary == (try Self.summary(work.file("one.json"))))
        #expect((summary["requests"] as? [String: Any])?["requests"] as? Int == 1, "\(summary)")
    }

    /// `summary merge` of the shards' `--summary` files adds up their requests as the merge of bundles
    /// does: a refusal in each shard (two reasons), counted as the one run counts them.
    @Test func summaryMergeAddsTheShardsRequests() async throws {
        let work = TemporaryDirectory("fleet-summary-merge")
        defer { work.remove() }
        try Self.refusedRequest.write(toFile: work.file("a.curl"), atomically: true, encoding: .utf8)
        try Self.refusedRequest.replacingOccurrences(
            of: "-H 'apns-push-type: alert' ", with: "-H 'apns-push-type: alert' -H 'apns-priority: 11' "
        )
        .write(toFile: work.file("b.curl"), atomically: true, encoding: .utf8)
        try Payloads.routed(image: nil).write(toFile: work.file("c.json"), atomically: true, encoding: .utf8)
        let inputs = [work.file("a.curl"), work.file("b.curl"), work.file("c.json")]
        _ = try await tool(["process", "--summary", work.file("one.json")] + inputs)
        for shard in 0..<2 {
            _ = try await tool(["process", "--shard", "\(shard)/2", "--summary", work.file("s\(shard).json")] + inputs)
        }
        let merged = try await tool(["summary", "merge", work.file("s0.json"), work.file("s1.json")])
        #expect(merged.status == 0, "\(merged.standardError)")
        let requests = try JSONSerialization.jsonObject(with: Data(merged.standardOutput.utf8)) as? [String: Any]
        let one = try Self.summary(work.file("one.json"))
        #expect((requests?["requests"] as? NSDictionary) == (one["requests"] as? NSDictionary), "\(merged.standardOutput)")
        #expect(((one["requests"] as? [String: Any])?["refused"] as? [String: Any])?.count == 2, "\(one)")
    }

    /// Under `--shard-by position` an image named at two positions is fetched by two shards, and a CDN
    /// that answers them differently is named by the merge.
    @Test func positionShardingFetchesPerShardAndTheMergeNamesAVerdictThatDiffers() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("fleet-position")
        defer { work.remove() }
        let flaky = server.url("/img/flaky?c=\(UUID().uuidString)")
        let png = server.url("/img/png?c=position")
        let lines = [flaky, flaky, png, png].map { Payloads.routed(image: $0) }
        try lines.joined(separator: "\n").write(toFile: work.file("c.jsonl"), atomically: true, encoding: .utf8)
        let shards = try await Self.fleet(
            2, variables: { ["CIRCLE_NODE_INDEX": String($0), "CIRCLE_NODE_TOTAL": "2"] },
            arguments: [
                "process", "--ca-file", server.caFile, "--shard", "auto", "--bundle", work.file("{K}.bundle"), work.file("c.jsonl"),
            ])
        #expect(shards.allSatisfy { $0.status == 0 }, "\(shards.map(\.standardError))")
        let targets = try await onOwnThread { try server.stats()["targets"] as? [String: Int] ?? [:] }
        #expect(targets[String(png.dropFirst(server.baseURL.count))] == 2, "once per shard: \(targets)")
        let merged = try await tool(["merge", work.file("0.bundle"), work.file("1.bundle")])
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(
            merged.standardError.contains("merge: \(flaky): verdicts differ between shards: ")
                && merged.standardError.contains("attached in ") && merged.standardError.contains("http-status in "),
            "\(merged.standardError)")
        #expect(!merged.standardError.contains("\(png): verdicts differ"))
        #expect(merged.jsonLines.map { $0["payload"] as? String } == (1...4).map { work.file("c.jsonl") + ":\($0)" })
    }

    // MARK: - What is compared

    /// Each line without what differs between any two runs: times, and whether a connection was new.
    static func lines(_ output: String) throws -> [NSDictionary] {
        try output.split(separator: "\n").map { line in
            var object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            object["elapsed_ms"] = nil
            if var trace = object["trace"] as? [String: Any] {
                trace["hops"] = (trace["hops"] as? [[String: Any]] ?? []).map { hop in
                    hop.filter { $0.key != "timings_ms" && $0.key != "tls" }
                }
                object["trace"] = trace
            }
            return object as NSDictionary
        }
    }

    /// The summary without each image's trace (its times).
    static func summary(_ path: String) throws -> NSDictionary {
        var summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
        summary["images"] = (summary["images"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "trace" } }
        return summary as NSDictionary
    }

    /// JUnit's counts and each test case with its failure or error, without times.
    static func junit(_ document: String) throws -> [String] {
        let parsed = try JUnitTests.parse(document)
        let counts = parsed.suites.map { "\($0["tests"] ?? "") \($0["failures"] ?? "") \($0["errors"] ?? "")" }
        let cases = parsed.cases.map { "\($0["classname"] ?? "") \($0["name"] ?? "")" }
        let failures = (parsed.failures + parsed.errors).map { "\($0["type"] ?? "") \($0["message"] ?? "")" }
        return counts + cases + failures.sorted()
    }

    /// The page's cards (payload, reason, image class), its filters and its embedded images, numbers of
    /// times aside.
    static func report(_ path: String) throws -> [String] {
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let cards = page.components(separatedBy: "<article ").dropFirst().map { String($0.prefix { $0 != ">" }) }
        let filters = page.components(separatedBy: "<label for=\"f-").dropFirst().map { String($0.prefix { $0 != "<" }) }
        let images = page.components(separatedBy: " .thumb,.img-").count - 1
        let rows = page.components(separatedBy: "<tr data-r=").count - 1
        return cards + filters + ["\(images) images", "\(rows) rows"]
    }
}
