@_spi(Tooling) import CarillonExtensionCore

/// The checked options of a run through the extension's pipeline, shared by `process` and `check`:
/// everything but where the payloads come from. Made by ``read(_:)``, which throws ``UsageError`` and
/// starts no work; run by ``PipelineRun``.
struct PipelinePlan {
    /// Where attachments go, receipts (if anywhere) and how images are downloaded.
    var configuration: ExtensionConfiguration
    /// Whether payloads naming the same image share one download (`--no-share` turns it off).
    var sharesImages: Bool
    /// When time-will-expire fires after delivery (`--expire-after`).
    var expireAfter: Duration
    var jobs: Int
    var format: PayloadRunner.OutputFormat
    var failOn: FailOn?
    /// `--report FILE.html`, checked to be writable where it is named.
    var reportPath: String?
    var appName: String
    /// `--summary FILE.json`, checked as `--report` is.
    var summaryPath: String?
    var shard: PayloadStream.Shard?
    /// `--shard-by`, `--shard auto`'s runners, `--bundle` and the options a bundle records (SPEC §6c).
    var fleet = FleetPlan()
    /// `--record DIR`: writes each payload's download as a HAR file (its directory made and checked).
    var recorder: Recorder?
    /// What the app says of where an image shows (SPEC §12): `--app`'s, with `--content-categories` in place of
    /// its categories when given (``RequestOptions``); else unknown.
    var presentationFacts: PresentationFacts = .unknown
    /// What in `--app`'s extension could not be read as Apple documents it, said once on standard error.
    var appNotes: [String] = []
    /// `--app` without `--tls-minimum` or `--no-forward-secrecy`: a refused handshake names the extension's
    /// Info.plist exception for the host, not an option.
    var wordsForApp = false
    /// SPEC §12: the device's Show Previews, when `--previews` states it.
    var previews: ShowPreviews? = nil

    /// The run's payloads from `inputs`, in order, as its shard takes them (SPEC §6a, §6c).
    func stream(_ inputs: [PayloadInput], linesFromStandardInput: Bool = false) -> PayloadStream {
        PayloadStream(
            inputs, linesFromStandardInput: linesFromStandardInput, shard: shard, rule: fleet.rule,
            downloadOptions: fleet.downloadOptionsText, digestsInput: fleet.bundlePath != nil, limit: ProcessCommand.maximumPayloadFileBytes
        )
    }

    /// The download budget, as the report draws it.
    var budget: Duration { configuration.download.limits.budget }

    /// Reads and checks every pipeline option of ``PipelineOptions`` and ``CampaignOptions`` that
    /// the command offers (one it does not offer reads as absent).
    static func read(_ arguments: ParsedArguments) throws(UsageError) -> PipelinePlan {
        typealias Options = PipelineOptions
        let limits = DownloadLimits(budget: try Options.budget.read(arguments), maximumBytes: try Options.maxBytes.read(arguments))
        let expireAfter = try Options.expireAfter.read(arguments)
        let jobs = try Options.jobs.read(arguments)
        let container = try Options.container.read(arguments)
        let keptAttachments = try Options.attachments.read(arguments)
        let attachments = keptAttachments ?? runAttachmentsDirectory()
        if let container, PathRelation.isSameOrInside(attachments, container) {
            throw UsageError(
                message:
                    "option '--attachments' must not be inside the shared container '\(container)': images are not the app's to read there")
        }
        let app = try readApp(arguments)
        var download = DownloadConfiguration(
            limits: limits, extraCAFile: try readCAFile(arguments), transportSecurity: try readTransportSecurity(arguments),
            requestHeaders: try readRequestHeaders(arguments, appUserAgent: app?.userAgent))
        if let app { download.transportSecurityPolicy = try appTransportSecurity(app, arguments) }
        let format = try Options.format.read(arguments)
        let failOn = try Options.failOn.read(arguments).map { text throws(UsageError) in try FailOn.parse(text) }
        let reportPath = try writableFile(Options.report, arguments)
        let appName = try Options.appName.read(arguments) ?? HTMLReport.defaultAppName
        let summaryPath = try writableFile(CampaignOptions.summary, arguments)
        let shardChoice = try CampaignOptions.readShard(arguments)
        let bundlePath = try writableFile(CampaignOptions.bundle, arguments)
        let shardRule = try CampaignOptions.shardBy.read(arguments)
        let outputs = [(Options.report, reportPath), (CampaignOptions.summary, summaryPath), (CampaignOptions.bundle, bundlePath)]
        if let clash = OutputClash.problem(
            outputs: outputs.compactMap { option, path in path.map { .init("option '\(option.spec.name)'", $0) } },
            inputs: arguments.positionals.map { .init("an input", $0) })
        {
            throw UsageError(message: clash)
        }
        if shardChoice == nil, arguments.value(CampaignOptions.shardBy.spec.name) != nil {
            throw UsageError(message: "option '--shard-by' needs --shard K/N or --shard auto: without a shard every payload runs here")
        }
        // Last: the other options' mistakes are said first, and a file is probed only for a run that can start.
        if let container { try DirectoryCheck.check(container, option: Options.container.spec.name, access: .create) }
        // Without --attachments the run's own directory goes under $TMPDIR: say so, not an option never typed.
        let attachmentsOption =
            keptAttachments == nil
            ? "the run's attachments directory under $TMPDIR (--attachments DIR names another)" : Options.attachments.spec.name
        try DirectoryCheck.check(attachments, option: attachmentsOption, access: .create)
        let recorder = try Recorder.make(
            arguments, container: container, attachments: attachments, download: download, expireAfter: expireAfter)
        var configuration = ExtensionConfiguration(attachmentsDirectory: attachments, receiptContainer: container, download: download)
        configuration.keepsAttachments = keptAttachments != nil
        let sharesImages = !(try CampaignOptions.noShare.read(arguments))
        let fleet = FleetPlan(
            rule: shardRule, runners: shardChoice?.runners ?? [], statusFile: shardChoice?.statusFile, bundlePath: bundlePath,
            verdictOptions: FleetPlan.verdictOptions(
                download: download, expireAfter: expireAfter, sharesImages: sharesImages, container: container != nil))
        var plan = PipelinePlan(
            configuration: configuration, sharesImages: sharesImages, expireAfter: expireAfter, jobs: jobs, format: format,
            failOn: failOn, reportPath: reportPath, appName: appName, summaryPath: summaryPath, shard: shardChoice?.shard, fleet: fleet,
            recorder: recorder)
        if let app {
            plan.presentationFacts = app.presentationFacts
            plan.appNotes = app.notes
            // --tls-minimum and --no-forward-secrecy, when given, win for every host: then they are the fix.
            let noForwardSecrecy = try Options.noForwardSecrecy.read(arguments)
            plan.wordsForApp = arguments.value(Options.tlsMinimum.spec.name) == nil && !noForwardSecrecy
        }
        try RequestOptions.read(arguments, into: &plan)
        return plan
    }

    /// `--ca-file`, readable and holding a certificate.
    private static func readCAFile(_ arguments: ParsedArguments) throws(UsageError) -> String? {
        let caFile = try PipelineOptions.caFile.read(arguments)
        if let caFile, let problem = CAFileCheck.problem(caFile) {
            throw UsageError(message: "--ca-file '\(Quoting.display(caFile))': \(problem)")
        }
        return caFile
    }

    /// App Transport Security with `--tls-minimum` and `--no-forward-secrecy`.
    private static func readTransportSecurity(_ arguments: ParsedArguments) throws(UsageError) -> TransportSecurity {
        var transportSecurity = TransportSecurity.appTransportSecurity
        transportSecurity.minimumTLS = try PipelineOptions.tlsMinimum.read(arguments)
        if try PipelineOptions.noForwardSecrecy.read(arguments) { transportSecurity.requiresForwardSecrecy = false }
        return transportSecurity
    }

    /// The request's header fields: URLSession's (with `--app`'s extension's User-Agent), with --user-agent,
    /// --accept-language and each --header.
    private static func readRequestHeaders(_ arguments: ParsedArguments, appUserAgent: String?) throws(UsageError) -> RequestHeaders {
        typealias Options = PipelineOptions
        let extra = try Options.header.read(arguments).compactMap { try? RequestHeaders.parse($0).get() }
        return RequestHeaders(
            userAgent: try Options.userAgent.read(arguments) ?? appUserAgent, acceptLanguage: try Options.acceptLanguage.read(arguments),
            extra: extra)
    }

    /// A file the run writes once it is over (`--report`, `--summary`): its directory must exist and it
    /// must not be a directory, so that the run does not end in a write that cannot succeed.
    private static func writableFile(_ option: Option<String?>, _ arguments: ParsedArguments) throws(UsageError) -> String? {
        let path = try option.read(arguments)
        if let path, let problem = ReportFile.problem(path) {
            throw UsageError(message: "\(option.spec.name) '\(Quoting.display(path))': \(problem)")
        }
        return path
    }

    /// Where a run without `--attachments` keeps its verified images until it ends: a directory of its own.
    private static func runAttachmentsDirectory() -> String {
        FileSystem.join(temporaryDirectory(), "carillon-nse-run-\(FileSystem.uniqueToken())")
    }

    /// `$TMPDIR`, or `/tmp`.
    static func temporaryDirectory() -> String {
        Environment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }
}
