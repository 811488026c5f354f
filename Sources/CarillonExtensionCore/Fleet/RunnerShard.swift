/// Which shard this process is, from the job runner's own variables (SPEC §6c): a pure function of the
/// environment, so that a shard whose runner did not pass its variables through is refused rather than
/// silently running the whole campaign.
package enum RunnerShard {
    /// A job runner and the variables it sets for each of its parallel jobs. A total the environment lacks
    /// comes from `auto/N`.
    package struct Runner: Sendable, Equatable {
        package var name: String
        /// The job's index.
        package var index: String
        /// The number of jobs, where the runner says it; nil where the total comes from `auto/N`.
        package var total: String?
        /// Whether the index counts from 1 (GitLab's `CI_NODE_INDEX`).
        package var oneBased = false
    }

    /// Every runner looked for, in the order they are tried.
    package static let runners = [
        Runner(name: "GitLab", index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL", oneBased: true),
        Runner(name: "CircleCI", index: "CIRCLE_NODE_INDEX", total: "CIRCLE_NODE_TOTAL"),
        Runner(name: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", total: "BUILDKITE_PARALLEL_JOB_COUNT"),
        Runner(name: "Kubernetes", index: "JOB_COMPLETION_INDEX", total: nil),
        Runner(name: "Cloud Run", index: "CLOUD_RUN_TASK_INDEX", total: "CLOUD_RUN_TASK_COUNT"),
        Runner(name: "AWS Batch", index: "AWS_BATCH_JOB_ARRAY_INDEX", total: "AWS_BATCH_JOB_ARRAY_SIZE"),
        Runner(name: "Bazel", index: "TEST_SHARD_INDEX", total: "TEST_TOTAL_SHARDS"),
    ]

    /// Bazel's file that a test touches to say it understood the shard variables.
    package static let bazelStatusFile = "TEST_SHARD_STATUS_FILE"

    /// Every variable read, in order: what a refusal names.
    package static var variables: [String] {
        runners.flatMap { [$0.index] + ($0.total.map { [$0] } ?? []) } + [bazelStatusFile]
    }

    /// The shard found.
    package struct Found: Sendable, Equatable {
        package var shard: Shard
        /// The runners whose variables said it (two or more only when they agree).
        package var runners: [String]
        /// Bazel's status file to touch, when the variable is set.
        package var statusFile: String?
    }

    /// Why no shard could be taken from the environment.
    package enum Problem: Error, Sendable, Equatable {
        /// No runner's index variable is set.
        case noRunner
        /// Two runners' variables say different shards.
        case disagree([(runner: String, shard: Shard)])
        /// A variable that is not a whole number.
        case notANumber(variable: String, value: String)
        /// An index outside 0..<N (1...N for a 1-based one), or a total under 1; `range` is what it must be
        /// ("from 0 to 3", "at least 1").
        case outOfRange(variable: String, value: String, range: String)
        /// An index without the total: none in the environment and none given as `auto/N`.
        case noTotal(runner: String, index: String, total: String?)
        /// The runner's total and the `auto/N` given differ.
        case totalDiffers(variable: String, value: String, given: Int)

        package static func == (lhs: Problem, rhs: Problem) -> Bool {
            switch (lhs, rhs) {
            case (.noRunner, .noRunner): return true
            case (.disagree(let a), .disagree(let b)): return a.map(\.runner) == b.map(\.runner) && a.map(\.shard) == b.map(\.shard)
            case (.notANumber(let a, let b), .notANumber(let c, let d)): return a == c && b == d
            case (.outOfRange(let a, let b, let c), .outOfRange(let d, let e, let f)): return a == d && b == e && c == f
            case (.noTotal(let a, let b, let c), .noTotal(let d, let e, let f)): return a == d && b == e && c == f
            case (.totalDiffers(let a, let b, let c), .totalDiffers(let d, let e, let f)): return a == d && b == e && c == f
            default: return false
            }
        }
    }

    /// The shard the environment says, with `total` the N of `auto/N` (nil for plain `auto`). A variable
    /// set to the empty string counts as unset.
    package static func resolve(_ environment: (String) -> String?, total: Int?) -> Result<Found, Problem> {
        func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        var found: [(runner: String, shard: Shard)] = []
        for runner in runners {
            guard let indexText = value(runner.index) else { continue }
            switch shard(runner, indexText: indexText, totalText: runner.total.flatMap { value($0) }, given: total) {
            case .failure(let problem): return .failure(problem)
            case .success(let shard): found.append((runner.name, shard))
            }
        }
        guard let first = found.first else { return .failure(.noRunner) }
        guard found.allSatisfy({ $0.shard == first.shard }) else { return .failure(.disagree(found)) }
        return .success(Found(shard: first.shard, runners: found.map(\.runner), statusFile: value(bazelStatusFile)))
    }

    /// One runner's shard from its variables' text.
    private static func shard(_ runner: Runner, indexText: String, totalText: String?, given: Int?) -> Result<Shard, Problem> {
        guard let index = Shard.number(Substring(indexText)) else { return .failure(.notANumber(variable: runner.index, value: indexText)) }
        let count: Int
        if let totalText, let totalName = runner.total {
            guard let parsed = Shard.number(Substring(totalText)) else {
                return .failure(.notANumber(variable: totalName, value: totalText))
            }
            guard parsed >= 1 else { return .failure(.outOfRange(variable: totalName, value: totalText, range: "at least 1")) }
            if let given, given != parsed { return .failure(.totalDiffers(variable: totalName, value: totalText, given: given)) }
            count = parsed
        } else if let given {
            // The runner gives only an index (Kubernetes; AWS Batch without the array size): `auto/N`.
            count = given
        } else {
            return .failure(.noTotal(runner: runner.name, index: runner.index, total: runner.total))
        }
        let zeroBased = runner.oneBased ? index - 1 : index
        guard let shard = Shard(index: zeroBased, count: count) else {
            let range = runner.oneBased ? "from 1 to \(count)" : "from 0 to \(count - 1)"
            return .failure(.outOfRange(variable: runner.index, value: indexText, range: range))
        }
        return .success(shard)
    }
}
