@_spi(Tooling) import CarillonExtensionCore

/// The options of a run through the extension's pipeline, declared once and shared by `process`,
/// `check` and `replay` (as swift-format's `LintFormatOptions` is by `lint` and `format`): the parser's
/// table, `--help` and the values ``PipelinePlan/read(_:)`` checks. Where the payloads come from is
/// each command's own; the campaign's and the recording's options are groups of their own
/// (``CampaignOptions``, ``RecordOptions``).
enum PipelineOptions {
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
    static let format = Option.choice(
        "--format", PayloadRunner.OutputFormat.allCases, default: .json,
        help: "JSON Lines, a readable block per payload, or JUnit XML (one test case per payload, printed at the end)."
    ).discussing("The text block has the outcome, the detail, each hop with its status and timings, the attachment and the warnings.")
    static let failOn = Option.text(
        "--fail-on", "CODES|fallback",
        help:
            "Exit 2 when an outcome is one of these comma-separated reason codes ('fallback': all but attached), or a request's"
            + " verdict is apns-refused or not-shown."
    ).discussing(
        "For CI jobs that check a campaign's images. Two more words match a request's verdicts: apns-refused (APNs, or FCM before it,"
            + " refuses the request) and not-shown (an attached image is not shown on some surface).")
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

    /// Every pipeline option, in the order `--help` lists them, the campaign's and the recording's after.
    static let specs: [OptionSpec] =
        [
            container.spec, attachments.spec, caFile.spec, budget.spec, maxBytes.spec, tlsMinimum.spec, noForwardSecrecy.spec,
            userAgent.spec, acceptLanguage.spec, header.spec, expireAfter.spec, jobs.spec, format.spec, failOn.spec, report.spec,
            appName.spec, app.spec,
        ] + CampaignOptions.specs + RecordOptions.specs + RequestOptions.specs
}
