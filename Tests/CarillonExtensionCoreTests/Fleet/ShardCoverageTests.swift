import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Whether bundles are one campaign, from a table: every refusal of SPEC §6c and the whole set.
@Suite struct ShardCoverageTests {
    static let input = ResultBundle.Input(payloads: 10, sha256: "aa", whole: true)

    static func bundle(
        _ name: String, _ shard: String, rule: ShardRule = .position, options: [(String, String)] = [("--budget", "20")],
        input: ResultBundle.Input = input, tool: String = "0.1.0", appName: String? = "Carillon", runners: [String] = []
    ) -> ShardCoverage.Bundle {
        let header = ResultBundle.Header(
            tool: tool, shard: Shard(shard)!, rule: rule, runners: runners, options: options.map { .init($0.0, $0.1) }, appName: appName,
            started: Timestamp(millisecondsSinceEpoch: 0))
        return ShardCoverage.Bundle(name: name, header: header, input: input)
    }

    static let cases: [([ShardCoverage.Bundle], String?)] = [
        ([bundle("a", "0/2"), bundle("b", "1/2")], nil),
        ([bundle("b", "1/2"), bundle("a", "0/2")], nil),
        ([bundle("a", "0/1")], nil),
        ([bundle("a", "0/3"), bundle("c", "2/3")], "shard 1/3 is missing"),
        ([bundle("a", "1/4")], "shards 0/4, 2/4, 3/4 are missing"),
        ([bundle("a", "0/2"), bundle("b", "0/2"), bundle("c", "1/2")], "b and a are both shard 0/2"),
        ([bundle("a", "0/2"), bundle("b", "1/3")], "b is shard 1/3 of 3, and a is 0/2 of 2: bundles of runs split differently"),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", rule: .image)],
            "b was sharded by image, and a by position: bundles of runs split differently"
        ),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", input: .init(payloads: 11, sha256: "bb", whole: true))],
            "b read another input than a: 11 payloads of SHA-256 bb, against 10 of aa"
        ),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", options: [("--budget", "5")])],
            "b ran with --budget 5, and a with --budget 20: bundles of runs whose verdicts are not comparable"
        ),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", options: [("--budget", "20"), ("--no-share", "true")])],
            "b ran with --no-share true, and a with --no-share not given: bundles of runs whose verdicts are not comparable"
        ),
        // --container changes the receipt field: it is a verdict option like any other.
        (
            [bundle("a", "0/2", options: [("--container", "given")]), bundle("b", "1/2", options: [("--container", "none")])],
            "b ran with --container none, and a with --container given: bundles of runs whose verdicts are not comparable"
        ),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", tool: "0.2.0")],
            "b was written by carillon-nse 0.2.0, and a by 0.1.0: bundles of versions whose verdicts may differ"
        ),
        (
            [bundle("a", "0/2"), bundle("b", "1/2", appName: "Other")],
            "b names the app 'Other' in its report, and a 'Carillon': bundles of runs whose reports differ"
        ),
        (
            [
                bundle("a", "0/2", input: .init(payloads: 10, sha256: "aa", whole: true, namesSHA256: "n1", firstName: "c.jsonl:1")),
                bundle("b", "1/2", input: .init(payloads: 10, sha256: "bb", whole: true, namesSHA256: "n2", firstName: "./c.jsonl:1")),
            ],
            "b named its 10 payloads otherwise than a did (its first is './c.jsonl:1', against 'c.jsonl:1'): a payload is named by"
                + " the path its shard was given, so give every shard the same paths"
        ),
        // GitLab counts its nodes from 1: the runner's own value beside the 0-based shard.
        ([bundle("a", "1/3", runners: ["GitLab"]), bundle("c", "2/3", runners: ["GitLab"])], "shard 0/3 is missing (CI_NODE_INDEX=1)"),
        ([bundle("a", "0/3", runners: ["Kubernetes"])], "shards 1/3, 2/3 are missing (JOB_COMPLETION_INDEX=1, 2)"),
    ]

    @Test(arguments: cases.indices)
    func bundlesAreOneCampaignOrSayWhyNot(index: Int) {
        let (bundles, message) = Self.cases[index]
        #expect(ShardCoverage.check(bundles)?.message == message)
    }

    @Test func everyPositionIsHeldOnce() {
        #expect(ShardCoverage.checkPositions([("a", [0, 2, 4]), ("b", [1, 3])], payloads: 5) == nil)
        #expect(
            ShardCoverage.checkPositions([("a", [0, 2]), ("b", [1, 2])], payloads: 3)?.message
                == "a and b both hold the payload at position 2")
        #expect(
            ShardCoverage.checkPositions([("a", [0, 2]), ("b", [3])], payloads: 4)?.message == "no bundle holds the payload at position 1")
        #expect(
            ShardCoverage.checkPositions([("a", [0, 9])], payloads: 2)?.message
                == "a holds a payload at position 9, past the end of the input")
        #expect(ShardCoverage.checkPositions([], payloads: 0) == nil)
    }
}
