/// The `process` options for checking a campaign (SPEC §6a), declared once: the parser's table,
/// `--help` and the values `run` reads.
enum CampaignOptions {
    static let lines = Option.flag(
        "--lines", help: "Standard input (-) is JSON Lines: one payload per line, named -:LINE (*.jsonl and *.ndjson files always are).")
    static let noShare = Option.flag(
        "--no-share", help: "Fetch every payload's image itself, not once per distinct image.")
    static let shard = Option.text(
        "--shard", "K/N", help: "Only the payloads whose position (over all inputs, in order) is K modulo N, 0 <= K < N.")
    static let summary = Option.path(
        "--summary", "FILE.json", help: "Also write the campaign summary: each distinct image's verdict, counts per reason."
    ).discussing("Each image's entry carries its trace; 'carillon-nse summary merge' reads the summaries of --shard runs as one.")

    static let specs: [OptionSpec] = [lines.spec, noShare.spec, shard.spec, summary.spec]

    /// `--shard`, parsed; a value that is not K/N with 0 <= K < N is a usage error.
    static func readShard(_ arguments: ParsedArguments) throws(UsageError) -> PayloadStream.Shard? {
        guard let text = try shard.read(arguments) else { return nil }
        guard let parsed = PayloadStream.Shard(text) else {
            throw UsageError(message: "option '--shard' takes K/N with 0 <= K < N (e.g. 0/4), not '\(text)'")
        }
        return parsed
    }
}
