import CarillonExtensionCore
import Dispatch

/// `carillon-nse process`: runs payload files through the extension and prints one JSON line each.
enum ProcessCommand: Command {
    static let name = "process"
    static let summary = "Run payload files through the extension; one JSON line per payload."

    static let options: [OptionSpec] = [
        OptionSpec(name: "--container", valueName: "DIR", help: "Shared container for receipts (the App Group). Without it, no receipts."),
        OptionSpec(name: "--attachments", valueName: "DIR", help: "Directory for attachment files (default: $TMPDIR/carillon-nse-attachments)."),
        OptionSpec(name: "--ca-file", valueName: "PEM", help: "Extra certificate authorities to trust (tests, staging). Verification stays on."),
        OptionSpec(name: "--budget", valueName: "SECONDS", help: "Time budget of each image download, redirects included (default 20; at least 0.001)."),
        OptionSpec(name: "--max-bytes", valueName: "N", help: "Size cap of each image in bytes (default 10485760)."),
        OptionSpec(name: "--tls-minimum", valueName: "1.0|1.1|1.2|1.3", help: "Lowest TLS version accepted (default 1.2), as NSExceptionMinimumTLSVersion."),
        OptionSpec(name: "--no-forward-secrecy", valueName: nil, help: "Also accept RSA key exchange under TLS 1.2, as NSExceptionRequiresForwardSecrecy NO."),
        OptionSpec(name: "--expire-after", valueName: "SECONDS", help: "When time-will-expire fires after delivery (default 30, as on iOS)."),
        OptionSpec(name: "--jobs", valueName: "N", help: "Payloads processed concurrently (default 1); output order is unchanged."),
        OptionSpec(name: "--recursive", valueName: nil, help: "Also take the *.json files of a directory's subdirectories, in sorted order."),
        OptionSpec(name: "--format", valueName: "json|text", help: "JSON Lines (default) or a readable block per payload."),
        OptionSpec(name: "--fail-on", valueName: "CODES|fallback", help: "Exit 2 when an outcome is one of these comma-separated reason codes ('fallback': all but attached)."),
    ]

    static var help: String {
        """
        Usage: carillon-nse process [options] PAYLOAD...

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

        Exit status: 0 when every payload was read (fallbacks are normal outcomes), 1 when a payload was
        unreadable or not a JSON object (the others are still processed) or no payload was found, 2 when
        an outcome matched --fail-on (and every input was read), 64 on bad usage (an unreadable
        --ca-file, or one without a certificate, included).

        """
    }

    /// Payload files larger than this are refused unread: APNs' limit is 4 KiB, so anything this big is
    /// not a push payload, and reading it whole would only cost memory.
    static let maximumPayloadFileBytes = 1_048_576

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        let budget = try arguments.milliseconds("--budget", default: DownloadLimits.standard.budgetMilliseconds)
        let maximumBytes = try arguments.positiveInteger("--max-bytes", default: DownloadLimits.standard.maximumBytes)
        let expireAfter = try arguments.seconds("--expire-after", default: 30)
        let jobs = try arguments.positiveInteger("--jobs", default: 1, maximum: 256)
        let container = try arguments.path("--container")
        let attachments = try arguments.path("--attachments") ?? defaultAttachmentsDirectory()
        if let container, PathRelation.isSameOrInside(attachments, container) {
            throw UsageError(message: "option '--attachments' must not be inside the shared container '\(container)': images are not the app's to read there")
        }
        var transportSecurity = TransportSecurity.appTransportSecurity
        if let text = arguments.value("--tls-minimum") {
            guard let version = TransportSecurity.TLSVersion(rawValue: text) else {
                throw UsageError(message: "option '--tls-minimum' needs 1.0, 1.1, 1.2 or 1.3, not '\(text)'")
            }
            transportSecurity.minimumTLS = version
        }
        if arguments.has("--no-forward-secrecy") { transportSecurity.requiresForwardSecrecy = false }
        if let caFile = try arguments.path("--ca-file") {
            if let problem = CAFileCheck.problem(caFile) {
                throw UsageError(message: "--ca-file '\(FileName.display(caFile))': \(problem)")
            }
        }
        let format = try arguments.value("--format").map { text throws(UsageError) in
            guard let format = PayloadRunner.OutputFormat(rawValue: text) else {
                throw UsageError(message: "option '--format' needs json or text, not '\(text)'")
            }
            return format
        } ?? .json
        let failOn = try arguments.value("--fail-on").map { text throws(UsageError) in try FailOn.parse(text) }
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "no PAYLOAD given") }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "'-' (standard input) given more than once")
        }

        var status = CarillonTool.exitSuccess
        let inputs = PayloadInput.expandAll(arguments.positionals, recursive: arguments.has("--recursive"), io: io, status: &status)

        // A run killed by SIGKILL leaves its partial downloads; an hour on, no download can own them.
        StaleFiles.removeStalePartialDownloads(in: attachments)
        let download = DownloadConfiguration(
            limits: DownloadLimits(budgetMilliseconds: budget, maximumBytes: maximumBytes),
            extraCAFile: arguments.value("--ca-file"), transportSecurity: transportSecurity)
        let configuration = ExtensionConfiguration(
            attachmentsDirectory: attachments, receiptContainer: container, download: download)
        let runner = PayloadRunner(
            configuration: configuration, pool: DownloaderPool(configuration: download), expireAfter: expireAfter,
            io: io, format: format)
        let report = runner.run(inputs, jobs: jobs)
        if !report.allRead { status = CarillonTool.exitDataError }
        if report.outcomes.count >= 2 {
            io.standardError.write("\(CarillonTool.name): summary: \(RunSummary(report.outcomes).line)\n")
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
