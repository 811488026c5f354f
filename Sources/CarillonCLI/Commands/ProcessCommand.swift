@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse process`: runs payload files through the extension and prints one JSON line each.
enum ProcessCommand: Command {
    static let name = "process"
    static let summary = "Run payload files through the extension; one JSON line per payload."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let container = Option.path(
            "--container", "DIR", help: "Shared container for receipts (the App Group). Without it, no receipts.")
        static let attachments = Option.path(
            "--attachments", "DIR", help: "Keep each payload's attachment file in DIR."
        ).discussing(
            "It is created 0700 if missing; each attachment file is 0600. Without it, verified images live in a directory of"
                + " the run's own under $TMPDIR, removed when the run ends: each line's attachments[].file is then null.")
        static let caFile = Option.path(
            "--ca-file", "PEM", help: "Extra certificate authorities to trust (tests, staging). Verification stays on."
        ).discussing(
            "The system's authorities stay trusted too. A file that cannot be read or holds no certificate is a usage error (64)"
                + " before any payload runs.")
        static let budget = Option.duration(
            "--budget", default: DownloadLimits.standard.budget,
            help: "Time budget of each image download, redirects included; at least 0.001."
        ).discussing("Wall time covering DNS, connect, TLS, every redirect and the body; 0.001 is 1 ms.")
        static let maxBytes = Option.positiveInteger(
            "--max-bytes", default: DownloadLimits.standard.maximumBytes, help: "Size cap of each image in bytes."
        ).discussing("An image of exactly N bytes is accepted.")
        static let tlsMinimum = Option.choice(
            "--tls-minimum", TransportSecurity.TLSVersion.allCases, default: TransportSecurity.appTransportSecurity.minimumTLS,
            help: "Lowest TLS version accepted, as NSExceptionMinimumTLSVersion.")
        static let noForwardSecrecy = Option.flag(
            "--no-forward-secrecy", help: "Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO."
        ).discussing("Finite-field DHE is never accepted.")
        static let userAgent = Option.text(
            "--user-agent", "TEXT", help: "The User-Agent sent (default \(RequestHeaders.defaultUserAgent), as iOS 18.6 sends it).")
        static let acceptLanguage = Option.text(
            "--accept-language", "TEXT", help: "The Accept-Language sent (default \(RequestHeaders.defaultAcceptLanguage))."
        ).discussing("A device's preferred languages.")
        static let header = Option.repeatable(
            "--header", "'NAME: VALUE'",
            help: "Send this header field too, or instead of the default of that name (repeatable; CDN debugging)."
        ) { text throws(UsageError) in
            if case .failure(let error) = RequestHeaders.parse(text) {
                throw UsageError(message: "option '--header' '\(error.text)' \(error.problem)")
            }
        }
        .discussing(
            "A default field is replaced by one of the same name, matched case-insensitively; no field is sent twice. A malformed"
                + " one is a usage error (64) naming it.")
        static let expireAfter = Option.duration(
            "--expire-after", default: .seconds(30), help: "When time-will-expire fires after delivery, as on iOS."
        ).discussing("iOS fires it about 30 s after delivery.")
        static let jobs = Option.positiveInteger(
            "--jobs", default: 1, maximum: 256, help: "Payloads processed concurrently; output order is unchanged."
        ).discussing(
            "From 1 to 256. Downloads reuse connections, and the workers share TLS sessions: the others start once the first"
                + " payload is done (at most 1 s later) and resume its session.")
        static let recursive = Option.flag(
            "--recursive", help: "Also take the payload files of a directory's subdirectories, in sorted order."
        ).discussing("Hidden subdirectories are skipped, and no link is followed into one.")
        static let format = Option.choice(
            "--format", PayloadRunner.OutputFormat.allCases, default: .json,
            help: "JSON Lines, a readable block per payload, or JUnit XML (one test case per payload, printed at the end)."
        ).discussing("The text block has the outcome, the detail, each hop with its status and timings, the attachment and the warnings.")
        static let failOn = Option.text(
            "--fail-on", "CODES|fallback",
            help: "Exit 2 when an outcome is one of these comma-separated reason codes ('fallback': all but attached)."
        ).discussing("For CI jobs that check a campaign's images.")
        static let report = Option.path(
            "--report", "FILE.html",
            help: "Also write one self-contained HTML page: each notification as iOS shows it, its outcome and its trace."
        )
        static let appName = Option.text(
            "--app-name", "NAME", help: "The app name the report's previews show.", default: HTMLReport.defaultAppName)
        static let app = Option.path(
            "--app", "APP",
            help: "Make every verdict this built app's (.ipa, .app, .xcarchive or a zip of one): its extension's ATS and User-Agent."
        ).discussing(
            "The notification service extension's own NSAppTransportSecurity replaces the strict defaults host by host"
                + " (NSExceptionDomains by name, subdomain or address; NSExceptionMinimumTLSVersion, NSExceptionRequiresForwardSecrecy;"
                + " NSAllowsArbitraryLoads); NSExceptionAllowsInsecureHTTPLoads changes nothing (downloads are HTTPS only), and the"
                + " line says so. The User-Agent is built from its CFBundleExecutable and CFBundleVersion. --tls-minimum,"
                + " --no-forward-secrecy and --user-agent still win. An app that cannot be read, or does not embed exactly one"
                + " service extension, is a usage error (64); 'carillon-nse doctor APP' says why.")
    }

    static let options: [OptionSpec] =
        [
            Options.container.spec, Options.attachments.spec, Options.caFile.spec, Options.budget.spec, Options.maxBytes.spec,
            Options.tlsMinimum.spec, Options.noForwardSecrecy.spec, Options.userAgent.spec, Options.acceptLanguage.spec,
            Options.header.spec, Options.expireAfter.spec, Options.jobs.spec, Options.recursive.spec,
            Options.format.spec, Options.failOn.spec, Options.report.spec, Options.appName.spec, Options.app.spec,
        ] + CampaignOptions.specs + RecordOptions.specs

    static let arguments = [
        ArgumentSpec(
            name: "PAYLOAD", value: .file,
            about:
                "A payload file (*.json, or Xcode's *.apns), a JSON Lines file (*.jsonl, *.ndjson: a payload a line), a directory (its *.json, *.apns and JSON Lines files, sorted) or - (standard input; with --lines, JSON Lines).",
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
                "Bad usage, an unreadable --ca-file or one without a certificate, a --report in a missing directory, and a --container or"
                + " --attachments that is not a directory, cannot be created or is not writable included."),
    ]

    static let overview = """
        Runs each APNs payload through the Notification Service Extension's logic — routing, receipt,
        image download, verification and attachment — and prints one JSON object per payload per line,
        in input order. PAYLOAD is a file, a directory (its *.json, *.apns, *.jsonl and *.ndjson files,
        sorted) or - (standard input); an *.apns file is Xcode's payload for the Simulator, whose
        "Simulator Target Bundle" --format text shows. A *.jsonl or *.ndjson file (and - with --lines) holds one payload per
        line, named FILE:LINE, read as it goes (a bad line is invalid-payload for that line alone).
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
        let stream = PayloadStream(
            inputs, linesFromStandardInput: plan.lines, shard: plan.pipeline.shard, limit: maximumPayloadFileBytes)
        return PipelineRun(plan: plan.pipeline, io: io).run(stream, inputsGiven: !inputs.isEmpty, status: status)
    }
}
