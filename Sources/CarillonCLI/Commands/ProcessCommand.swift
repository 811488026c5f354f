@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse process`: runs payload files through the extension and prints one JSON line each.
enum ProcessCommand: Command {
    static let name = "process"
    static let summary = "Run payload files through the extension; one JSON line per payload."

    /// `process`'s own option; the others are the pipeline's (``PipelineOptions``), shared with `check` and `replay`.
    enum Options {
        static let recursive = Option.flag(
            "--recursive", help: "Also take the payload files of a directory's subdirectories, in sorted order."
        ).discussing("Hidden subdirectories are skipped, and no link is followed into one.")
    }

    /// The pipeline's options, with `--recursive` after `--jobs`, where `--help` has always listed it.
    static let options: [OptionSpec] = PipelineOptions.specs.flatMap { spec in
        spec == PipelineOptions.jobs.spec ? [spec, Options.recursive.spec] : [spec]
    }

    static let arguments = [
        ArgumentSpec(
            name: "PAYLOAD", value: .file,
            about:
                "A payload file (*.json, or Xcode's *.apns), a request (a curl command, an APNs request text or an FCM message, recognised from its content), a JSON Lines file (*.jsonl, *.ndjson: a payload a line), a directory (its *.json, *.apns and JSON Lines files, and its *.http, *.curl, *.sh and *.txt files that hold a request, sorted) or - (standard input; with --lines, JSON Lines).",
            repeats: true)
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every payload was read (fallbacks are normal outcomes)."),
        ExitStatus(
            code: 1,
            meaning:
                "A payload was unreadable or not a JSON object (the others are still processed), no payload was found, or the report could not be written."
        ),
        ExitStatus(code: 2, meaning: "An outcome matched --fail-on, and every input was read."),
        ExitStatus(
            code: 64,
            meaning:
                "Bad usage, an unreadable --ca-file or one without a certificate, a --report in a missing directory, an output file"
                + " (--report, --summary, --bundle) that is an input or another output, --shard-by without --shard, and a --container or"
                + " --attachments that is not a directory, cannot be created or is not writable included."),
    ]

    static let overview = """
        Runs each APNs payload through the Notification Service Extension's logic — routing, receipt,
        image download, verification and attachment — and prints one JSON object per payload per line,
        in input order. PAYLOAD is a file, a directory (its *.json, *.apns, *.jsonl and *.ndjson files,
        and the *.http, *.curl, *.sh and *.txt files that hold a push request, sorted) or - (standard input); an *.apns file is Xcode's payload for the Simulator, whose
        "Simulator Target Bundle" --format text shows. A *.jsonl or *.ndjson file (and - with --lines) holds one payload per
        line, named FILE:LINE, read as it goes (a bad line is invalid-payload for that line alone).
        A request — a curl command, an APNs request written as text, an FCM HTTP v1 message — is
        recognised from its content: its payload runs, and the line's "request" says what APNs answers,
        whether the extension runs and where the image shows (nothing is ever sent to APNs or FCM).
        Downloads follow App Transport Security, as iOS applies it to the extension; --tls-minimum and
        --no-forward-secrecy are the two exceptions an extension's Info.plist can declare.
        """

    static let sections = [
        """
        Each line has: payload, routed, reason, detail, delivered ("modified" or "original"),
        delivery_id, receipt ("stored", "duplicate", "none" or "failed"), attachments
        ([{"file","type","bytes"}]), elapsed_ms, warnings, image_url and trace (null when nothing was
        downloaded; else request_headers, then hops with url, status, http_version, remote, location,
        content_type, content_length, content_encoding, wire_bytes, decoded_bytes, tls and timings_ms,
        then body_bytes, budget_ms, phase and image).
        """,
        """
        After two or more payloads a summary goes to standard error: counts per reason, the median
        and 95th percentile of elapsed_ms, and the number of distinct images.
        """,
        """
        Campaigns: payloads naming the same image URL share one download and its verdict (each still
        gets its own line, receipt, attachment file, a hard link, and time-will-expire); the line's
        "shared_with" names the payload that fetched it (null for that one). --summary FILE.json
        writes every distinct image's verdict, counts and trace atomically once the run is done;
        'carillon-nse summary merge' reads the summaries of --shard runs as one. --format junit prints
        one test case per payload once the run is over: a failure for each outcome --fail-on names, or
        without it for each payload whose image was not attached; an unreadable payload is an error.
        On a fleet, --shard auto takes K/N from the job runner's variables, --shard-by image leaves each
        distinct image to one shard, and --bundle FILE keeps the shard's result for 'carillon-nse merge'.
        """,
        """
        --report FILE.html writes, once every payload is done, one page that opens from disk and
        fetches nothing: a card per payload in input order (the lock-screen banner and the expanded
        notification, with the attached image embedded; the outcome; the trace as a waterfall against
        --budget and --expire-after), the summary and filters by reason. It replaces FILE.html
        atomically, then says on standard error where, how large and how fast. A FILE.html whose
        directory does not exist, or that is a directory, is a usage error (64) before any payload
        runs; a write that fails afterwards is exit 1, naming the file.
        """,
    ]

    /// Payload files larger than this are refused unread: APNs' limit is 4 KiB, so anything this big is
    /// not a push payload, and reading it whole would only cost memory.
    static let maximumPayloadFileBytes = 1_048_576

    /// The pipeline's options and the payloads to run, checked.
    struct Plan {
        var pipeline: PipelinePlan
        /// The PAYLOAD arguments, as given.
        var payloads: [String]
        var recursive: Bool
        /// `--lines`: standard input is JSON Lines.
        var lines: Bool
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let pipeline = try PipelinePlan.read(arguments)
        return Plan(
            pipeline: pipeline, payloads: try inputArguments(arguments, naming: "PAYLOAD"),
            recursive: try Options.recursive.read(arguments),
            lines: try CampaignOptions.lines.read(arguments))
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        var status = CarillonTool.exitSuccess
        let inputs = PayloadInput.expandAll(plan.payloads, recursive: plan.recursive, io: io, status: &status)
        let stream = plan.pipeline.stream(inputs, linesFromStandardInput: plan.lines)
        return PipelineRun(plan: plan.pipeline, io: io).run(stream, inputsGiven: !inputs.isEmpty, status: status)
    }
}
