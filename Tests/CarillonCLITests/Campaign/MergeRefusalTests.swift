import CarillonTestSupport
import Foundation
import Testing

/// Every refusal of `merge` (SPEC §6c), through the built tool: exit 1, one line naming the file (a
/// missing shard as K/N), and nothing on standard output; and `--shard auto`'s usage errors. Bundles of
/// a small campaign without images: no server, a few milliseconds a run.
@Suite(.timeLimit(.minutes(2))) struct MergeRefusalTests {
    static let payload = #"{"aps":{"alert":"Hello","mutable-content":1}}"#

    /// `campaign.jsonl` of `count` payloads, and the bundles of `shards` written for it with `extra` options.
    static func bundles(
        _ work: TemporaryDirectory, shards: [String], count: Int = 7, extra: [String] = [], file: String = "campaign.jsonl"
    ) async throws -> [String] {
        let campaign = work.file(file)
        if !FileManager.default.fileExists(atPath: campaign) {
            try (0..<count).map { _ in payload }.joined(separator: "\n").write(toFile: campaign, atomically: true, encoding: .utf8)
        }
        var paths: [String] = []
        for shard in shards {
            let options = extra.joined().replacingOccurrences(of: "/", with: "_")
            let path = work.file("\(file)-\(shard.replacingOccurrences(of: "/", with: "of"))\(options).bundle")
            let result = try await tool(["process", "--shard", shard, "--bundle", path] + extra + [campaign])
            #expect(result.status == 0, "\(result.standardError)")
            paths.append(path)
        }
        return paths
    }

    static func refused(_ arguments: [String], _ message: String) async throws {
        let result = try await tool(["merge"] + arguments)
        #expect(result.status == 1, "\(arguments): \(result.standardError)")
        #expect(result.standardOutput.isEmpty, "nothing merged")
        #expect(result.standardError == "carillon-nse merge: \(message)\n")
    }

    @Test func aWholeSetMergesAndEachMissingOrDuplicatedShardIsRefused() async throws {
        let work = TemporaryDirectory("merge-shards")
        defer { work.remove() }
        let all = try await Self.bundles(work, shards: ["0/3", "1/3", "2/3"])
        let merged = try await tool(["merge"] + all)
        #expect(merged.status == 0 && merged.jsonLines.count == 7, "\(merged.standardError)")
        try await Self.refused([all[0], all[2]], "shard 1/3 is missing")
        // A runner that counts from 1 is named in its own words too.
        let gitlab = try await onOwnThread {
            try Command.run(
                Paths.tool, ["process", "--shard", "auto", "--bundle", work.file("gl.bundle"), work.file("campaign.jsonl")],
                environment: FleetEndToEndTests.noRunner.merging(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"]) { $1 })
        }
        #expect(gitlab.status == 0, "\(gitlab.standardError)")
        try await Self.refused([all[0], work.file("gl.bundle")], "shard 2/3 is missing (CI_NODE_INDEX=3)")
        try await Self.refused([all[1]], "shards 0/3, 2/3 are missing")
        try await Self.refused(all + [all[1]], "\(all[1]) and \(all[1]) are both shard 1/3")
    }

    @Test func bundlesOfAnotherInputOptionsRuleOrNAreRefused() async throws {
        let work = TemporaryDirectory("merge-mixed")
        defer { work.remove() }
        let two = try await Self.bundles(work, shards: ["0/2", "1/2"])
        let other = try await Self.bundles(work, shards: ["1/2"], count: 8, file: "other.jsonl")
        try await Self.refused(
            [two[0], other[0]],
            "\(other[0]) read another input than \(two[0]): 8 payloads of SHA-256 \(try Self.inputDigest(other[0])),"
                + " against 7 of \(try Self.inputDigest(two[0]))")
        // The same payloads under another path: the names differ, and the refusal says so.
        let dotted = try await Self.bundles(work, shards: ["1/2"], file: "./campaign.jsonl")
        try await Self.refused(
            [two[0], dotted[0]],
            "\(dotted[0]) named its 7 payloads otherwise than \(two[0]) did (its first is '\(work.path)/./campaign.jsonl:1', against"
                + " '\(work.path)/campaign.jsonl:1'): a payload is named by the path its shard was given, so give every shard the same paths"
        )
        let budget = try await Self.bundles(work, shards: ["1/2"], extra: ["--budget", "5"])
        try await Self.refused(
            [two[0], budget[0]],
            "\(budget[0]) ran with --budget 5000 ms, and \(two[0]) with --budget 20000 ms: bundles of runs whose verdicts are not comparable"
        )
        let byImage = try await Self.bundles(work, shards: ["1/2"], extra: ["--shard-by", "image"])
        try await Self.refused(
            [two[0], byImage[0]], "\(byImage[0]) was sharded by image, and \(two[0]) by position: bundles of runs split differently")
        let three = try await Self.bundles(work, shards: ["1/3"])
        try await Self.refused(
            [two[0], three[0]], "\(three[0]) is shard 1/3 of 3, and \(two[0]) is 0/2 of 2: bundles of runs split differently")
        // --container changes each line's receipt; --app-name the report: neither is merged mixed.
        let container = try await Self.bundles(work, shards: ["1/2"], extra: ["--container", work.file("group")])
        try await Self.refused(
            [two[0], container[0]],
            "\(container[0]) ran with --container given, and \(two[0]) with --container none: bundles of runs whose verdicts are not"
                + " comparable")
        let named = try await Self.bundles(work, shards: ["1/2"], extra: ["--app-name", "Other"])
        try await Self.refused(
            [two[0], named[0]],
            "\(named[0]) names the app 'Other' in its report, and \(two[0]) 'Carillon': bundles of runs whose reports differ")
    }

    /// An output that names an input or another output (by its inode, or its resolved path before it
    /// exists) is a usage error, and the file is left as it was.
    @Test func anOutputThatIsAnInputIsAUsageErrorAndTouchesNothing() async throws {
        let work = TemporaryDirectory("merge-clash")
        defer { work.remove() }
        let two = try await Self.bundles(work, shards: ["0/2", "1/2"])
        let campaign = work.file("campaign.jsonl")
        try FileManager.default.linkItem(atPath: two[0], toPath: work.file("hard.link"))
        let before = try Data(contentsOf: URL(fileURLWithPath: two[0]))
        let cases: [[String]] = [
            ["merge", "--lines", two[0]] + two,
            ["merge", "--summary", work.file("hard.link")] + two,
            ["merge", "--report", work.file("x.html"), "--summary", work.file("./x.html")] + two,
            ["process", "--shard", "0/2", "--bundle", campaign, campaign],
            ["process", "--report", campaign, campaign],
        ]
        for arguments in cases {
            let result = try await tool(arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("is the same file as"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: two[0])) == before, "the bundle untouched")
        #expect(try String(contentsOfFile: campaign, encoding: .utf8).hasPrefix(Self.payload), "the campaign untouched")
        #expect(!FileManager.default.fileExists(atPath: work.file("x.html")))
        let shardBy = try await tool(["process", "--shard-by", "image", campaign])
        #expect(shardBy.status == 64 && shardBy.standardError.contains("option '--shard-by' needs --shard"), "\(shardBy.standardError)")
    }

    static func inputDigest(_ bundle: String) throws -> String {
        let last = try String(contentsOfFile: bundle, encoding: .utf8).split(separator: "\n").last ?? ""
        let end = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        return (end?["input"] as? [String: Any])?["sha256"] as? String ?? ""
    }

    /// A bundle cut short (the core's table cuts one at every byte), one damaged, one that is no bundle
    /// and one that is not there: each refused, naming the file, before anything is merged.
    @Test func aCutDamagedForeignOrMissingBundleIsRefused() async throws {
        let work = TemporaryDirectory("merge-cut")
        defer { work.remove() }
        let bundles = try await Self.bundles(work, shards: ["0/2", "1/2"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bundles[1]))
        let cut = work.file("cut.bundle")
        for length in [0, 1, bytes.count / 2, bytes.count - 1] {
            try bytes.prefix(length).write(to: URL(fileURLWithPath: cut))
            let result = try await tool(["merge", bundles[0], cut])
            #expect(result.status == 1 && result.standardOutput.isEmpty, "cut at \(length)")
            let expected = length == 0 ? "\(cut): empty" : "\(cut): line "
            #expect(result.standardError.hasPrefix("carillon-nse merge: \(expected)"), "\(result.standardError)")
            #expect(length == 0 || result.standardError.contains("cut short"), "\(result.standardError)")
        }
        var damaged = bytes
        damaged[damaged.count / 3] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: work.file("damaged.bundle")))
        let result = try await tool(["merge", bundles[0], work.file("damaged.bundle")])
        #expect(result.status == 1 && result.standardOutput.isEmpty, "\(result.standardError)")
        try await Self.refused(
            [bundles[0], work.file("campaign.jsonl")], "\(work.file("campaign.jsonl")): line 1: not a carillon-nse result bundle")
        let missing = try await tool(["merge", bundles[0], work.file("absent.bundle")])
        #expect(missing.status == 1 && missing.standardError.hasPrefix("carillon-nse merge: \(work.file("absent.bundle")): cannot read"))
    }

    /// The merged exit status is the unsharded run's: 1 for an unreadable payload, 2 for `--fail-on`.
    @Test func theMergedExitStatusIsTheUnshardedRuns() async throws {
        let work = TemporaryDirectory("merge-status")
        defer { work.remove() }
        let bundles = try await Self.bundles(work, shards: ["0/2", "1/2"])
        #expect(try await tool(["merge", "--fail-on", "no-image"] + bundles).status == 2)
        #expect(try await tool(["merge", "--fail-on", "timeout"] + bundles).status == 0)
        try ([Self.payload, "not json", Self.payload].joined(separator: "\n")).write(
            toFile: work.file("bad.jsonl"), atomically: true, encoding: .utf8)
        var bad: [String] = []
        for shard in ["0/2", "1/2"] {
            bad.append(work.file("bad-\(shard.prefix(1)).bundle"))
            _ = try await tool(["process", "--shard", shard, "--bundle", bad.last!, work.file("bad.jsonl")])
        }
        let merged = try await tool(["merge", "--fail-on", "no-image"] + bad)
        #expect(merged.status == 1, "an unreadable payload says more than --fail-on: \(merged.standardError)")
        #expect(merged.jsonLines.map { $0["reason"] as? String } == ["no-image", "invalid-payload", "no-image"])
        #expect(try await tool(["merge"]).status == 64)
    }

    /// `--shard auto` with no runner, two that disagree, or a value it cannot take: 64, naming what it read.
    @Test(
        arguments: [
            ([:], "no job runner's shard variable is set; looked for CI_NODE_INDEX and CI_NODE_TOTAL (GitLab),"),
            (
                ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2"],
                "the job runners' variables disagree: GitLab says 0/2, Bazel says 1/2; looked for CI_NODE_INDEX"
            ),
            (["CIRCLE_NODE_INDEX": "x", "CIRCLE_NODE_TOTAL": "2"], "CIRCLE_NODE_INDEX is 'x', not a whole number"),
            (["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "2"], "CLOUD_RUN_TASK_INDEX is 2, but must be from 0 to 1"),
            (["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "0"], "CLOUD_RUN_TASK_COUNT is 0, but must be at least 1"),
            (
                ["JOB_COMPLETION_INDEX": "0"],
                "JOB_COMPLETION_INDEX (Kubernetes) is set, but only auto/N can give the number of shards: give --shard auto/N"
            ),
        ] as [([String: String], String)])
    func shardAutoWithoutAShardIsAUsageError(variables: [String: String], message: String) async throws {
        let environment = FleetEndToEndTests.noRunner.merging(variables) { $1 }
        let result = try await onOwnThread {
            try Command.run(Paths.tool, ["process", "--shard", "auto", "-"], input: Data(Self.payload.utf8), environment: environment)
        }
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("carillon-nse process: option '--shard auto': \(message)"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        if variables.isEmpty {
            for variable in FleetEndToEndTests.noRunner.keys where variable != "TEST_SHARD_STATUS_FILE" {
                #expect(result.standardError.contains(variable), "\(variable) named")
            }
        }
    }
}
