@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse merge BUNDLE...`: the bundles of a campaign's shards (`process --bundle`) joined into
/// what one unsharded run writes (SPEC §6c).
enum MergeCommand: Command {
    static let name = "merge"
    static let summary = "Join the result bundles of a campaign's shards (process --bundle) into what one unsharded run writes."

    /// The output a merge prints on standard output.
    enum Format: String, CaseIterable, Sendable {
        case json, junit
    }

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let lines = Option.path(
            "--lines", "FILE", help: "Write the lines, in input order, to FILE instead of standard output."
        ).discussing("With --format junit, the lines are written only when --lines is given.")
        static let summary = Option.path(
            "--summary", "FILE.json", help: "Also write the campaign summary, as process --summary writes it for one run.")
        static let report = Option.path(
            "--report", "FILE.html", help: "Also write the report page, as process --report writes it for one run.")
        static let format = Option.choice(
            "--format", Format.allCases, default: .json,
            help: "JSON Lines, or JUnit XML (one test case per payload) on standard output, as process prints them.")
        static let failOn = Option.text(
            "--fail-on", "CODES|fallback",
            help:
                "Exit 2 when a merged outcome is one of these comma-separated reason codes ('fallback': all but attached), or a"
                + " request's apns-refused or not-shown.")
    }

    static let options: [OptionSpec] = [
        Options.lines.spec, Options.summary.spec, Options.report.spec, Options.format.spec, Options.failOn.spec,
    ]

    static let arguments = [
        ArgumentSpec(
            name: "BUNDLE", value: .file, about: "A result bundle written by process --bundle (or check --bundle): one for each shard.",
            repeats: true)
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "The bundles were merged and every payload of the campaign was read."),
        ExitStatus(
            code: 1,
            meaning:
                "A bundle is cut short, damaged or unreadable; a shard is missing or given twice; the bundles are of different inputs,"
                + " options, rules, N, tool versions or app names; an output could not be written; or the campaign had an unreadable payload, as its unsharded"
                + " run would have exited 1."),
        ExitStatus(code: 2, meaning: "A merged outcome matched --fail-on, and every payload was read."),
        ExitStatus(
            code: 64, meaning: "Bad usage: no BUNDLE, an output file in a missing directory, or one that is a BUNDLE or another output."),
    ]

    static let overview = """
        Reads the result bundles of every shard of one campaign ('process --shard K/N --bundle FILE' or
        --shard auto) and writes what one unsharded run of it writes: the lines in input order (to
        --lines FILE, or standard output), the campaign summary (--summary), the grouped report
        (--report), JUnit (--format junit), and the exit status that run would have had, --fail-on
        applied to the merged lines.

        Before anything is written every bundle is read whole and checked: a bundle cut short at any
        byte, or damaged, is refused, naming it; so are a missing shard (named K/N), a shard given
        twice, and bundles of different inputs (or of the same payloads under other paths), options
        that change verdicts (--container among them), rules (--shard-by), N, tool versions or report
        app names. A missing shard is also named by the runner's own variable when the bundles say
        which runner it was (GitLab's CI_NODE_INDEX counts from 1). --fail-on takes apns-refused and
        not-shown as process does, from each request the bundles kept.
        Images whose verdict differs between shards (a flaky or geo-dependent CDN under --shard-by
        position) are named on standard error.
        """

    /// The bundles and the outputs, checked.
    struct Plan {
        var bundles: [String]
        var linesPath: String?
        var summaryPath: String?
        var reportPath: String?
        var format: Format
        var failOn: FailOn?
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "no BUNDLE given") }
        let plan = Plan(
            bundles: arguments.positionals, linesPath: try writableFile(Options.lines, arguments),
            summaryPath: try writableFile(Options.summary, arguments), reportPath: try writableFile(Options.report, arguments),
            format: try Options.format.read(arguments),
            failOn: try Options.failOn.read(arguments).map { text throws(UsageError) in try FailOn.parse(text) })
        let outputs = [(Options.lines, plan.linesPath), (Options.summary, plan.summaryPath), (Options.report, plan.reportPath)]
        if let clash = OutputClash.problem(
            outputs: outputs.compactMap { option, path in path.map { .init("option '\(option.spec.name)'", $0) } },
            inputs: plan.bundles.map { .init("a BUNDLE", $0) })
        {
            throw UsageError(message: clash)
        }
        return plan
    }

    /// A file written once the merge is done: its directory must exist and it must not be a directory.
    private static func writableFile(_ option: Option<String?>, _ arguments: ParsedArguments) throws(UsageError) -> String? {
        let path = try option.read(arguments)
        if let path, let problem = ReportFile.problem(path) {
            throw UsageError(message: "\(option.spec.name) '\(Quoting.display(path))': \(problem)")
        }
        return path
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        BundleMerge(plan: plan, io: io).run()
    }
}
