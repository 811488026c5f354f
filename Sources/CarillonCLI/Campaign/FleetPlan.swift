@_spi(Tooling) import CarillonExtensionCore

/// What a run on a fleet adds to a ``PipelinePlan`` (SPEC §6c): how payloads fall to shards, where the
/// bundle goes, and the options a bundle records because verdicts depend on them.
struct FleetPlan {
    /// `--shard-by`.
    var rule = ShardRule.position
    /// The runners `--shard auto` read, and Bazel's status file.
    var runners: [String] = []
    var statusFile: String?
    /// `--bundle FILE`, checked as `--summary` is.
    var bundlePath: String?
    /// The options that change a verdict, each as one canonical text (a CA file by the SHA-256 of its
    /// bytes, so that shards that keep it under different paths agree).
    var verdictOptions: [ResultBundle.Option] = []
    /// The names of those that change a download: what `--shard-by image` hashes with each URL.
    static let downloadOptionNames: Set<String> = [
        "--budget", "--max-bytes", "--tls-minimum", "--no-forward-secrecy", requestHeadersName, "--ca-file",
    ]

    /// The request's header fields as sent, whichever of the three options set them.
    static let requestHeadersName = "--user-agent/--accept-language/--header"

    /// The download options as the one text `--shard-by image` hashes.
    var downloadOptionsText: String {
        verdictOptions.filter { Self.downloadOptionNames.contains($0.name) }.map { "\($0.name)=\($0.value)" }.joined(separator: "\n")
    }

    /// The verdict-changing options of a run, from its checked values. `--container` by whether it was
    /// given (each line's `receipt` says whether receipts were stored; the path is each runner's own).
    static func verdictOptions(
        download: DownloadConfiguration, expireAfter: Duration, sharesImages: Bool, container: Bool = false
    ) -> [ResultBundle.Option] {
        let security = download.transportSecurity
        let headers = download.requestHeaders
        var options: [ResultBundle.Option] = [
            .init("--budget", "\(download.limits.budget.wholeMilliseconds) ms"),
            .init("--max-bytes", String(download.limits.maximumBytes)),
            .init("--expire-after", "\(expireAfter.wholeMilliseconds) ms"),
            .init("--tls-minimum", security.minimumTLS.rawValue),
            .init("--no-forward-secrecy", security.requiresForwardSecrecy ? "no" : "yes"),
            .init(requestHeadersName, headers.fields.map { "\($0.name): \($0.value)" }.joined(separator: "; ")),
            .init("--no-share", sharesImages ? "no" : "yes"),
            .init("--container", container ? "given" : "none"),
        ]
        let ca = download.extraCAFile.map { path in
            ((try? FileSystem.readFile(path, limit: 16 * 1_048_576, policy: .namedByUser)).map { "sha256:" + SHA256.hex($0) })
                ?? "unreadable"
        }
        options.append(.init("--ca-file", ca ?? "none"))
        // --app's exceptions, host by host (its standard rules are the two lines above, its User-Agent the headers').
        let exceptions = download.transportSecurityPolicy.exceptions.map { exception in
            "\(exception.domain)\(exception.includesSubdomains ? " and subdomains" : ""): TLS \(exception.security.minimumTLS.rawValue)"
                + (exception.security.requiresForwardSecrecy ? "" : ", no forward secrecy")
        }
        if !exceptions.isEmpty { options.append(.init("--app", exceptions.joined(separator: "; "))) }
        return options
    }
}
