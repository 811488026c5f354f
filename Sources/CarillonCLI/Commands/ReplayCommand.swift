@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse replay`: the extension's verdict from a captured answer (a HAR), offline.
enum ReplayCommand: Command {
    static let name = "replay"
    static let summary = "Give the extension's verdict from a HAR capture, offline; one JSON line per image."

    /// The options of replay's own; the verdict options are the pipeline's (``PipelineOptions``).
    enum Options {
        static let payload = Option.path(
            "--payload", "FILE", help: "The payload the device received, routed as process routes it; its image is looked for in the HAR."
        ).discussing(
            "A payload that is not mutable, displays no alert or names no image the extension would fetch is its own line (exit 0),"
                + " with no entry looked for.")
        static let url = Option.text("--url", "URL", help: "Replay this image URL, as the image of a routed payload.")
        static let entry = Option.text("--entry", "N", help: "Replay entry N of the file (counted from 0, in file order).")
        static let list = Option.flag("--list", help: "Print one JSON line per entry of the file instead of verdicts.")
        static let at = Option.text(
            "--at", "recorded|now|ISO8601", help: "The instant certificates and clocks are judged at.", default: "recorded")
        static let latin1 = Option.flag(
            "--latin1-bodies", help: "Read an image body written as text without an encoding as Latin-1 bytes (ProxyPin).")
        static let chain = Option.path(
            "--chain", "FILE.pem", help: "Judge the first host's certificates from this chain (leaf first), as the HAR has none."
        ).discussing(
            "For example from 'openssl s_client -showcerts -servername HOST -connect HOST:443'. Fetched later, it may not be the"
                + " chain the device saw: the line's notes say so.")
        static let format = Option.choice(
            "--format", [PayloadRunner.OutputFormat.json, .text], default: .json,
            help: "JSON Lines, or process's readable block per image with the replay's own lines after it.")
        static let matchIgnoreQuery = Option.repeatable(
            "--match-ignore-query", "NAME",
            help: "Also ignore this query parameter when matching URLs to entries (repeatable; adds to the defaults, never replaces them).",
            check: { name throws(UsageError) in
                guard !name.isEmpty, !name.contains(where: { "&=?#".contains($0) || $0.isWhitespace }) else {
                    throw UsageError(message: "option '--match-ignore-query' needs a query parameter name, not '\(name)'")
                }
            }
        ).discussing(
            "URLs are matched after the same redaction on both sides (a live token matches its recording's stand-in), with"
                + " the volatile signed-URL parameters ignored by default: "
                + HARURLComparison.defaultIgnoredQuery.sorted().joined(separator: ", ") + ". Names are compared in any case.")
        /// `--fail-on` without the request's words: a recording carries no request (SPEC §12's words are
        /// refused, 64). Read by ``PipelinePlan`` under the same name.
        static let failOn = Option.text(
            "--fail-on", "CODES|fallback",
            help: "Exit 2 when an outcome is one of these comma-separated reason codes ('fallback': all but attached)."
        ).discussing("A recording carries no request, so process's apns-refused and not-shown are refused (exit 64).")
        static let check = Option.flag(
            "--check", help: "Compare with the verdict and trace a carillon recording holds; exit 3 when they differ.")
    }

    static let options: [OptionSpec] = [
        Options.payload.spec, Options.url.spec, Options.entry.spec, Options.list.spec, Options.at.spec, Options.latin1.spec,
        Options.chain.spec, Options.matchIgnoreQuery.spec, Options.check.spec, Options.format.spec, PipelineOptions.budget.spec,
        PipelineOptions.maxBytes.spec,
        PipelineOptions.tlsMinimum.spec, PipelineOptions.noForwardSecrecy.spec, PipelineOptions.caFile.spec,
        PipelineOptions.expireAfter.spec, PipelineOptions.userAgent.spec, Options.failOn.spec,
        PipelineOptions.attachments.spec, PipelineOptions.report.spec, PipelineOptions.appName.spec, PipelineOptions.app.spec,
    ]

    static let arguments = [
        ArgumentSpec(
            name: "RECORDING", value: .file,
            about: "A HAR file (.har), a compressed one (.zhar), a directory of them (sorted) or - (standard input).", repeats: true)
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every recording was read."),
        ExitStatus(code: 1, meaning: "A recording was unreadable or not a HAR, or held no entry for the URL."),
        ExitStatus(code: 2, meaning: "An outcome matched --fail-on."),
        ExitStatus(code: 3, meaning: "--check found a verdict that differs from the recorded one."),
        ExitStatus(code: 64, meaning: "Bad usage."),
    ]

    static let overview = """
        Re-decides, offline, what the Notification Service Extension would have done with the answers a
        capture holds: a HAR from Chrome, Safari, Firefox, Proxyman, Charles, mitmproxy, HTTP Toolkit or
        Instruments, or one carillon-nse wrote. The same decision code as a live run judges each
        response (status, redirects as the extension follows them, codings, the cap, the image); no
        socket is opened. Without --payload, --url or --entry, each distinct image URL is replayed once;
        a line's notes name the other entries of its URL, and say when they answered otherwise.

        A recording carillon-nse made replays with its own payload, options (budget, time-will-expire,
        byte cap, TLS minimum, forward secrecy, request headers; --budget, --expire-after, --max-bytes,
        --tls-minimum, --no-forward-secrecy and --user-agent override them), the extra trust its run
        had (--ca-file adds to it) and connections: each recorded TLS version, cipher and certificate
        chain is judged again at the instant --at names, a connection reused from an earlier payload's
        download included.

        Recorded times are a verdict: the chain's requests, one after the other, are held against the
        budget and time-will-expire (timeout, expired), with the note that the times are the capture
        network's.

        Prints the process line for each image, plus a "replay" object: source, file, creator, entries,
        checked, not_checked ([{check, why}]), request_differs ([{header, recorded, extension, varies}])
        and notes. When the capture lacks what the verdict needs (a body, a redirect's target, a full
        answer where it holds only a 304 to a conditional request) the reason is undetermined and the
        detail names what is missing.

        --report writes process's HTML page, one card per replayed image, each card also showing its
        replay object; --attachments keeps each attached image, as process does.
        """

    /// Everything a replay needs, checked.
    struct Plan {
        var pipeline: PipelinePlan
        var recordings: [String]
        /// What the core's replay is asked: the configuration, the options that override a recording's
        /// own, the instant, Latin-1 bodies, `--chain`, `--match-ignore-query`.
        var settings: ReplaySettings
        /// `--payload`: read when the run starts (an unreadable one is a data error, as a recording is).
        var payloadPath: String?
        var url: String?
        var entry: Int?
        var list: Bool
        var check: Bool
        /// `--format`: JSON Lines or text.
        var format: PayloadRunner.OutputFormat = .json
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let pipeline = try PipelinePlan.read(arguments)
        if let words = pipeline.failOn?.requestConditions, !words.isEmpty {
            let named = FailOn.RequestCondition.allCases.filter(words.contains).map { "'\($0.rawValue)'" }.joined(separator: " and ")
            throw UsageError(
                message: "option '--fail-on' of replay takes reason codes or 'fallback', not \(named): a recording carries no request")
        }
        _ = try inputArguments(arguments, naming: "RECORDING")
        let payload = try Options.payload.read(arguments)
        let url = try Options.url.read(arguments)
        let entryText = try Options.entry.read(arguments)
        if [payload != nil, url != nil, entryText != nil].filter({ $0 }).count > 1 {
            throw UsageError(message: "options '--payload', '--url' and '--entry' choose the image: give one of them")
        }
        var entry: Int?
        if let entryText {
            guard let number = Int(entryText), number >= 0 else {
                throw UsageError(message: "option '--entry' needs an entry number (0 or more), not '\(entryText)'")
            }
            entry = number
        }
        var settings = ReplaySettings(configuration: pipeline.configuration, expireAfter: pipeline.expireAfter)
        settings.overrides = overrides(arguments)
        settings.at = try instant(arguments)
        settings.latin1 = try Options.latin1.read(arguments)
        settings.chain = try chain(arguments)
        settings.ignoredQuery = Set(try Options.matchIgnoreQuery.read(arguments))
        return Plan(
            pipeline: pipeline, recordings: arguments.positionals, settings: settings, payloadPath: payload, url: url, entry: entry,
            list: try Options.list.read(arguments), check: try Options.check.read(arguments), format: try Options.format.read(arguments))
    }

    /// The options given that win over a recording's own settings.
    static func overrides(_ arguments: ParsedArguments) -> ReplaySettings.Overrides {
        typealias Process = PipelineOptions
        let valued: [(OptionSpec, ReplaySettings.Overrides)] = [
            (Process.budget.spec, .budget), (Process.maxBytes.spec, .maximumBytes), (Process.tlsMinimum.spec, .minimumTLS),
            (Process.userAgent.spec, .requestHeaders), (Process.expireAfter.spec, .expireAfter),
        ]
        var overrides: ReplaySettings.Overrides = valued.filter { arguments.value($0.0.name) != nil }.reduce([]) { $0.union($1.1) }
        if arguments.has(Process.noForwardSecrecy.spec.name) { overrides.insert(.forwardSecrecy) }
        // --app stands for the extension's own ATS and User-Agent: the recorded ones give way to it.
        if arguments.value(Process.app.spec.name) != nil { overrides.insert(.app) }
        return overrides
    }

    /// `--at`: nil for the recorded instant.
    private static func instant(_ arguments: ParsedArguments) throws(UsageError) -> Timestamp? {
        switch try Options.at.read(arguments) ?? "recorded" {
        case "recorded": return nil
        case "now": return Timestamp.now()
        case let text:
            guard let instant = Timestamp(iso8601: text) else {
                throw UsageError(message: "option '--at' needs 'recorded', 'now' or an ISO 8601 time, not '\(text)'")
            }
            return instant
        }
    }

    /// `--chain`: the certificates, DER, leaf first (empty without it).
    private static func chain(_ arguments: ParsedArguments) throws(UsageError) -> [[UInt8]] {
        guard let path = try Options.chain.read(arguments) else { return [] }
        guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20, policy: .namedByUser) else {
            throw UsageError(message: "option '--chain' '\(path)': cannot be read")
        }
        let chain = PEMChain.certificates(in: String(decoding: bytes, as: UTF8.self))
        guard !chain.isEmpty else { throw UsageError(message: "option '--chain' '\(path)': holds no PEM certificate") }
        return chain
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        // Without --attachments, one directory lasts for the whole run (each recording empties it).
        defer {
            if !plan.pipeline.configuration.keepsAttachments {
                AttachmentStore.removeRunDirectory(plan.pipeline.configuration.attachmentsDirectory)
            }
        }
        guard let target = ReplayInput.target(plan, io: io) else { return CarillonTool.exitDataError }
        var status = CarillonTool.exitSuccess
        var outcomes: [Reason] = []
        var changed = false
        var report = plan.pipeline.reportPath.map { _ in ReplayReport() }
        for file in ReplayInput.expand(plan.recordings, io: io, status: &status) {
            guard let archive = ReplayInput.archive(file, io: io) else {
                status = CarillonTool.exitDataError
                continue
            }
            if plan.list {
                for line in ReplayListLine.lines(archive) { io.standardOutput.write(JSONWriter.string(line) + "\n") }
                continue
            }
            let run = ReplayRun(
                plan: plan, replay: CaptureReplay(archive: archive, file: file.path, directory: file.directory, settings: plan.settings),
                io: io)
            let result = run.replayAll(target, report: &report)
            if !result.allRead { status = CarillonTool.exitDataError }
            if result.changed { changed = true }
            outcomes += result.reasons
        }
        if let report, let path = plan.pipeline.reportPath, !report.write(plan.pipeline, to: path, io: io) {
            status = CarillonTool.exitDataError
        }
        if status == CarillonTool.exitSuccess, changed { return CarillonTool.exitChanged }
        if status == CarillonTool.exitSuccess, let failOn = plan.pipeline.failOn, outcomes.contains(where: { failOn.matches($0) }) {
            return CarillonTool.exitFailOn
        }
        return status
    }
}
