@_spi(Tooling) import CarillonExtensionCore

/// The shard a run is (`--shard`): as given, or found from the job runner's variables by `auto`, with
/// what found it.
struct ShardChoice: Equatable {
    var shard: Shard
    /// The runners whose variables `auto` read (empty for K/N as given).
    var runners: [String] = []
    /// Bazel's `TEST_SHARD_STATUS_FILE`, touched before the run.
    var statusFile: String?

    /// What `auto` found wrong, in the tool's words; every refusal of the environment as a whole names
    /// every variable looked for.
    static func words(_ problem: RunnerShard.Problem) -> String {
        switch problem {
        case .noRunner:
            return "no job runner's shard variable is set; looked for \(lookedFor)"
        case .disagree(let found):
            let said = found.map { "\($0.runner) says \($0.shard)" }.joined(separator: ", ")
            return "the job runners' variables disagree: \(said); looked for \(lookedFor)"
        case .notANumber(let variable, let value):
            return "\(variable) is '\(value)', not a whole number"
        case .outOfRange(let variable, let value, let range):
            return "\(variable) is \(value), but must be \(range)"
        case .noTotal(let runner, let index, let total):
            let from = total.map { "neither \($0) nor auto/N gives" } ?? "only auto/N can give"
            return "\(index) (\(runner)) is set, but \(from) the number of shards: give --shard auto/N"
        case .totalDiffers(let variable, let value, let given):
            return "\(variable) is \(value), not the \(given) of auto/\(given)"
        }
    }

    /// Every variable, by runner: "CI_NODE_INDEX and CI_NODE_TOTAL (GitLab), …".
    static var lookedFor: String {
        RunnerShard.runners.map { runner in
            (runner.total.map { "\(runner.index) and \($0)" } ?? runner.index) + " (\(runner.name))"
        }.joined(separator: ", ")
    }
}
