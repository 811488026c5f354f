import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `--shard auto`'s choice from a table of environments: every runner of SPEC §6c, `auto/N`, two
/// runners agreeing and disagreeing, and every refusal naming its variable.
@Suite struct RunnerShardTests {
    typealias Case = (environment: [String: String], total: Int?, expected: Result<(Int, Int, [String]), RunnerShard.Problem>)

    static func found(_ index: Int, _ count: Int, _ runners: String...) -> Result<(Int, Int, [String]), RunnerShard.Problem> {
        .success((index, count, runners))
    }

    static let cases: [Case] = [
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4"], nil, found(0, 4, "GitLab")),
        (["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "4"], nil, found(3, 4, "GitLab")),
        (["CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "3"], nil, found(0, 3, "CircleCI")),
        (["BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"], nil, found(2, 3, "Buildkite")),
        (["JOB_COMPLETION_INDEX": "7"], 8, found(7, 8, "Kubernetes")),
        (["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "2"], nil, found(1, 2, "Cloud Run")),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "5", "AWS_BATCH_JOB_ARRAY_SIZE": "10"], nil, found(5, 10, "AWS Batch")),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "5"], 6, found(5, 6, "AWS Batch")),
        (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2"], nil, found(0, 2, "Bazel")),
        (["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2"], 2, found(1, 2, "Bazel")),
        // Two runners that say the same shard (CircleCI's variables set inside a Kubernetes pod).
        (["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2", "JOB_COMPLETION_INDEX": "1"], 2, found(1, 2, "CircleCI", "Kubernetes")),
        // Empty is unset.
        (["CI_NODE_INDEX": "", "CIRCLE_NODE_INDEX": "0", "CIRCLE_NODE_TOTAL": "1"], nil, found(0, 1, "CircleCI")),
        ([:], nil, .failure(.noRunner)),
        (["CI_NODE_TOTAL": "4", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": "/tmp/s"], nil, .failure(.noRunner)),
        (["CI_NODE_INDEX": "", "JOB_COMPLETION_INDEX": ""], 4, .failure(.noRunner)),
        (
            ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2", "CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"], nil,
            .failure(.disagree([("GitLab", Shard(index: 0, count: 2)!), ("CircleCI", Shard(index: 1, count: 2)!)]))
        ),
        (
            ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "2", "TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3"], nil,
            .failure(.disagree([("Cloud Run", Shard(index: 0, count: 2)!), ("Bazel", Shard(index: 0, count: 3)!)]))
        ),
        (
            ["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"], nil,
            .failure(.outOfRange(variable: "CI_NODE_INDEX", value: "0", range: "from 1 to 4"))
        ),
        (
            ["CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"], nil,
            .failure(.outOfRange(variable: "CI_NODE_INDEX", value: "5", range: "from 1 to 4"))
        ),
        (
            ["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "3"], nil,
            .failure(.outOfRange(variable: "CIRCLE_NODE_INDEX", value: "3", range: "from 0 to 2"))
        ),
        (["JOB_COMPLETION_INDEX": "8"], 8, .failure(.outOfRange(variable: "JOB_COMPLETION_INDEX", value: "8", range: "from 0 to 7"))),
        (
            ["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "0"], nil,
            .failure(.outOfRange(variable: "BUILDKITE_PARALLEL_JOB_COUNT", value: "0", range: "at least 1"))
        ),
        (["CI_NODE_INDEX": "one", "CI_NODE_TOTAL": "4"], nil, .failure(.notANumber(variable: "CI_NODE_INDEX", value: "one"))),
        (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "4 "], nil, .failure(.notANumber(variable: "CI_NODE_TOTAL", value: "4 "))),
        (["TEST_SHARD_INDEX": "-1", "TEST_TOTAL_SHARDS": "2"], nil, .failure(.notANumber(variable: "TEST_SHARD_INDEX", value: "-1"))),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "0x1"], 4, .failure(.notANumber(variable: "AWS_BATCH_JOB_ARRAY_INDEX", value: "0x1"))),
        (["JOB_COMPLETION_INDEX": "1"], nil, .failure(.noTotal(runner: "Kubernetes", index: "JOB_COMPLETION_INDEX", total: nil))),
        (
            ["AWS_BATCH_JOB_ARRAY_INDEX": "1"], nil,
            .failure(.noTotal(runner: "AWS Batch", index: "AWS_BATCH_JOB_ARRAY_INDEX", total: "AWS_BATCH_JOB_ARRAY_SIZE"))
        ),
        (["CI_NODE_INDEX": "1"], nil, .failure(.noTotal(runner: "GitLab", index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL"))),
        (["CI_NODE_INDEX": "1"], 3, found(0, 3, "GitLab")),
        (
            ["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "4"], 3,
            .failure(.totalDiffers(variable: "CLOUD_RUN_TASK_COUNT", value: "4", given: 3))
        ),
    ]

    @Test(arguments: cases.indices)
    func theEnvironmentSaysTheShard(index: Int) {
        let (environment, total, expected) = Self.cases[index]
        let result = RunnerShard.resolve({ environment[$0] }, total: total)
        switch (result, expected) {
        case (.success(let found), .success(let (index, count, runners))):
            #expect(found.shard == Shard(index: index, count: count))
            #expect(found.runners == runners)
        case (.failure(let problem), .failure(let expectedProblem)):
            #expect(problem == expectedProblem, "\(environment)")
        default:
            Issue.record("\(environment) \(total.map(String.init) ?? "-"): \(result), expected \(expected)")
        }
    }

    @Test func bazelsStatusFileIsReportedWhenSet() {
        let environment = ["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": "/tmp/status"]
        #expect((try? RunnerShard.resolve({ environment[$0] }, total: nil).get())?.statusFile == "/tmp/status")
        #expect((try? RunnerShard.resolve({ ["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "1"][$0] }, total: nil).get())?.statusFile == nil)
    }

    /// What a refusal names: every variable of every runner, and Bazel's status file.
    @Test func everyVariableOfSPECIsLookedFor() {
        #expect(
            RunnerShard.variables == [
                "CI_NODE_INDEX", "CI_NODE_TOTAL", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", "BUILDKITE_PARALLEL_JOB",
                "BUILDKITE_PARALLEL_JOB_COUNT", "JOB_COMPLETION_INDEX", "CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT",
                "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE", "TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "TEST_SHARD_STATUS_FILE",
            ])
    }
}
