@_spi(Tooling) import CarillonExtensionCore
import Dispatch

/// `carillon-nse process`: runs payload files through the extension and prints one JSON line each.
enum ProcessCommand: Command {
    static let name = "process"
    static let summary = "Run payload files through the extension; one JSON line per payload."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let container = Option.path(
            "--container", "DIR", help: "Shared container for receipts (the App Group). Without it, no receipts.")
        static let attachments = Option.path(
            "--attachments", "DIR", help: "Directory for attachment files.", default: "$TMPDIR/carillon-nse-attachments")
        static let caFile = Option.path(
            "--ca-file", "PEM", help: "Extra certificate authorities to trust (tests, staging). Verification stays on.")
        static let budget = Option.milliseconds(
            "--budget", default: DownloadLimits.standard.budgetMilliseconds,
            help: "Time budget of each image download, redirects included; at least 0.001.")
        static let maxBytes = Option.positiveInteger(
            "--max-bytes", default: DownloadLimits.standard.maximumBytes, help: "Size cap of each image in bytes.")
        static let tlsMinimum = Option.choice(
            "--tls-minimum", TransportSecurity.TLSVersion.allCases, default: TransportSecurity.appTransportSecurity.minimumTLS,
            help: "Lowest TLS version accepted, as NSExceptionMinimumTLSVersion.")
        static let noForwardSecrecy = Option.flag(
            "--no-forward-secrecy", help: "Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO.")
        static let expireAfter = Option.seconds(
            "--expire-after", default: 30, help: "When time-will-expire fires after delivery, as on iOS.")
        static let jobs = Option.positiveInteger(
            "--jobs", default: 1, maximum: 256, help: "Payloads processed concurrently; output order is unchanged.")
        static let recursive = Option.flag(
            "--recursive", help: "Also take the *.json files of a directory's subdirectories, in sorted order.")
        static let format = Option.choice(
            "--format", PayloadRunner.OutputFormat.allCases, default: .json, help: "JSON Lines, or a readable block per payload.")
        static let failOn = Option.text(
            "--fail-on", "CODES|fallback",
            help: "Exit 2 when an outcome is one of these comma-separated reason codes ('fallback': all but attached).")
        static let report = Option.path(
            "--report", "FILE.html",
            help: "Also write one self-contained HTML page: each notification as iOS shows it, its outcome and its trace.")
        static let appName = Option.text(
            "--app-name", "NAME", help: "The app name the report's previews show.", default: HTMLReport.defaultAppName)
    }

    static let options: [OptionSpec] = [
        Options.container.spec, Options.attachments.spec, Options.caFile.spec, Options.budget.spec, Options.maxBytes.spec,
        Options.tlsMinimum.spec, Options.noForwardSecrecy.spec, Options.expireAfter.spec, Options.jobs.spec, Options.recursive.spec,
        Options.format.spec, Options.failOn.spec, Options.report.spec, Options.appName.spec,
    ]

    static let arguments = [
        ArgumentSpec(
            name: "PAYLOAD", value: .file, about: "A payload file, a directory (its *.json files, sorted) or - (standard input).",
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
                "Bad usage, an unreadable --ca-file or one without a certificate, and a --report in a missing directory included."),
    ]

    static var help: String {
        """
        Usage: \(usage)

        Runs each APNs payload through the Notification Service Extension's logic — routing, receipt,
        image download, verification and attachment — and prints one JSON object per payload per line,
        in input order. PAYLOAD is a file, a directory (its *.json files, sorted) or - (standard input).
        Downloads follow App Transport Security, as iOS applies it to the extension; --tls-minimum and
        --no-forward-secrecy are the two exceptions an extension's Info.plist can declare.

        Options:
        \(optionsHelp(options + [CarillonTool.helpOption]))

        Each line has: payload, routed, reason, detail, delivered ("modified" or "original"),
        delivery_id, receipt ("stored", "duplicate", "none" or "failed"), attachments
        ([{"file","type","bytes"}]), elapsed_ms, warnings, image_url and trace (null when nothing was
        downloaded; else hops with url, status, http_version, remote, location, content_type,
        content_length, tls and timings_ms, then body_bytes, budget_ms, phase and image).

        After two or more payloads a summary goes to standard error: counts per reason, and the median
        and 95th percentile of elapsed_ms.

        --report FILE.html writes, once every payload is done, one page that opens from disk and
        fetches nothing: a card per payload in input order (the lock-screen banner and the expanded
        notification, with the attached image embedded; the outcome; the trace as a waterfall against
        --budget and --expire-after), the summary and filters by reason. It replaces FILE.html
        atomically, then says on standard error where, how large and how fast. A FILE.html whose
        directory does not exist, or that is a directory, is a usage error (64) before any payload
        runs; a write that fails afterwards is exit 1, naming the file.

        \(ExitStatus.help(exitStatuses))

        """
    }

    /// Payload files larger than this are refused unread: APNs' limit is 4 KiB, so anything this big is
    /// not a push payload, and reading it whole would only cost memory.
    static let maximumPayloadFileBytes = 1_048_576

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        let budget = try Options.budget.read(arguments)
        let maximumBytes = try Options.maxBytes.read(arguments)
        let expireAfter = try Options.expireAfter.read(arguments)
        let jobs = try Options.jobs.read(arguments)
        let container = try Options.container.read(arguments)
        let attachments = try Options.attachments.read(arguments) ?? defaultAttachmentsDirectory()
        if let container, PathRelation.isSameOrInside(attachments, container) {
            throw UsageError(
                message:
                    "option '--attachments' must not be inside the shared container '\(container)': images are not the app's to read there")
        }
        var transportSecurity = TransportSecurity.appTransportSecurity
        transportSecurity.minimumTLS = try Options.tlsMinimum.read(arguments)
        if try Options.noForwardSecrecy.read(arguments) { transportSecurity.requiresForwardSecrecy = false }
        let caFile = try Options.caFile.read(arguments)
        if let caFile, let problem = CAFileCheck.problem(caFile) {
            throw UsageError(message: "--ca-file '\(FileName.display(caFile))': \(problem)")
        }
        let format = try Options.format.read(arguments)
        let failOn = try Options.failOn.read(arguments).map { text throws(UsageError) in try FailOn.parse(text) }
        let reportPath = try Options.report.read(arguments)
        if let reportPath, let problem = ReportFile.problem(reportPath) {
            throw UsageError(message: "--report '\(FileName.display(reportPath))': \(problem)")
        }
        let appName = try Options.appName.read(arguments) ?? HTMLReport.defaultAppName
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "no PAYLOAD given") }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "'-' (standard input) given more than once")
        }

        var status = CarillonTool.exitSuccess
        let inputs = PayloadInput.expandAll(
            arguments.positionals, recursive: try Options.recursive.read(arguments), io: io, status: &status)

        // A run killed by SIGKILL leaves its partial downloads; an hour on, no download can own them.
        StaleFiles.removeStalePartialDownloads(in: attachments)
        let download = DownloadConfiguration(
            limits: DownloadLimits(budgetMilliseconds: budget, maximumBytes: maximumBytes),
            extraCAFile: caFile, transportSecurity: transportSecurity)
        let configuration = ExtensionConfiguration(
            attachmentsDirectory: attachments, receiptContainer: container, download: download)
        let runner = PayloadRunner(
            runtime: ExtensionRuntime(configuration: configuration), expireAfter: expireAfter, io: io, format: format,
            collectsReport: reportPath != nil)
        let report = runner.run(inputs, jobs: jobs)
        if !report.allRead { status = CarillonTool.exitDataError }
        if report.outcomes.count >= 2 {
            io.standardError.write("\(CarillonTool.name): summary: \(RunSummary(report.outcomes).line)\n")
        }
        if let reportPath {
            let page = HTMLReport(appName: appName, budgetMilliseconds: Double(budget), expireMilliseconds: expireAfter * 1000)
            let started = ContinuousClock.now
            do throws(FileSystemError) {
                let bytes = try ReportFile.write(page, entries: report.entries, to: reportPath)
                let elapsed = ContinuousClock.now - started
                let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                io.standardError.write(
                    "\(CarillonTool.name): report: \(FileName.display(reportPath)) (\(report.entries.count) payload\(report.entries.count == 1 ? "" : "s"), \(bytes) bytes,"
                        + " written in \(ResultLine.milliseconds(milliseconds)) ms)\n")
            } catch {
                io.standardError.write(
                    "\(CarillonTool.name): cannot write report '\(FileName.display(reportPath))': \(error.description)\n")
                status = CarillonTool.exitDataError
            }
        }
        // An input that could not be read (1) says more than a matched outcome (2).
        if status == CarillonTool.exitSuccess, let failOn, report.outcomes.contains(where: { failOn.matches($0.reason) }) {
            status = CarillonTool.exitFailOn
        }
        return status
    }

    private static func defaultAttachmentsDirectory() -> String {
        let temporary = Environment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return FileSystem.join(temporary, "carillon-nse-attachments")
    }
}
