@_spi(Tooling) import CarillonExtensionCore

/// The `process` options for checking a campaign (SPEC §6a, §6c), declared once: the parser's table,
/// `--help` and the values `run` reads.
enum CampaignOptions {
    static let lines = Option.flag(
        "--lines", help: "Standard input (-) is JSON Lines: one payload per line, named -:LINE (*.jsonl and *.ndjson files always are).")
    static let noShare = Option.flag(
        "--no-share", help: "Fetch every payload's image itself, not once per distinct image.")
    static let shard = Option.text(
        "--shard", "K/N|auto|auto/N",
        help: "Only the payloads that fall to shard K of N, 0 <= K < N; auto: K and N from the job runner's variables."
    ).discussing(
        "auto reads CI_NODE_INDEX/CI_NODE_TOTAL (GitLab, 1-based), CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL,"
            + " BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT, JOB_COMPLETION_INDEX (Kubernetes, with auto/N),"
            + " CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT, AWS_BATCH_JOB_ARRAY_INDEX (with AWS_BATCH_JOB_ARRAY_SIZE or auto/N) and"
            + " TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel; TEST_SHARD_STATUS_FILE is touched when set); auto/N gives N where"
            + " the runner gives only an index. None set, two runners that disagree, or an index out of range is a usage"
            + " error (64) naming the variables: a shard that silently ran everything would prove nothing.")
    static let shardBy = Option.choice(
        "--shard-by", ShardRule.allCases, default: .position,
        help: "With --shard: split by input position, or by image, so that each distinct image is fetched by one shard only."
    ).discussing(
        "image hashes the image URL (after the URL rules) and the options that change a download, the same in every process;"
            + " a payload that fetches no image goes by its position.")
    static let bundle = Option.path(
        "--bundle", "FILE",
        help: "Also write this shard's result bundle, for 'carillon-nse merge': the lines, the per-image summary, K/N and the rule."
    ).discussing(
        "It also holds the tool's version, the options that change verdicts, a digest of the whole input, the times and the"
            + " attached images the report shows; it is written under a temporary name and renamed once the run is over, and"
            + " a bundle cut short at any byte is refused by merge.")
    static let summary = Option.path(
        "--summary", "FILE.json", help: "Also write the campaign summary: each distinct image's verdict, counts per reason."
    ).discussing("Each image's entry carries its trace; 'carillon-nse summary merge' reads the summaries of --shard runs as one.")

    static let specs: [OptionSpec] = [lines.spec, noShare.spec, shard.spec, shardBy.spec, bundle.spec, summary.spec]

    /// `--shard`, parsed: K/N as given, or `auto`'s from the environment; a value that is neither, or an
    /// environment that says no shard, is a usage error.
    static func readShard(
        _ arguments: ParsedArguments, environment: (String) -> String? = Environment.value
    ) throws(UsageError) -> ShardChoice? {
        guard let text = try shard.read(arguments) else { return nil }
        if text == "auto" || text.hasPrefix("auto/") {
            let total = text == "auto" ? nil : Shard.number(text.dropFirst(5))
            guard text == "auto" || (total ?? 0) >= 1 else {
                throw UsageError(message: "option '--shard' takes auto/N with N >= 1 (e.g. auto/8), not '\(text)'")
            }
            switch RunnerShard.resolve(environment, total: total) {
            case .success(let found): return ShardChoice(shard: found.shard, runners: found.runners, statusFile: found.statusFile)
            case .failure(let problem): throw UsageError(message: "option '--shard \(text)': " + ShardChoice.words(problem))
            }
        }
        guard let parsed = Shard(text) else {
            throw UsageError(message: "option '--shard' takes K/N with 0 <= K < N (e.g. 0/4), auto or auto/N, not '\(text)'")
        }
        return ShardChoice(shard: parsed)
    }
}
