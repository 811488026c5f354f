/// What a replay is asked to do, in the core's words: the configuration it starts from, which of its
/// settings were asked for (they win over a recording's own), and how the capture is read (the
/// instant certificates are judged at, Latin-1 bodies, a supplied chain, query parameters ignored).
package struct ReplaySettings: Sendable {
    /// The download settings that were asked for, and so win over the ones a recording was made under.
    package struct Overrides: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        package static let budget = Overrides(rawValue: 1 << 0)
        package static let maximumBytes = Overrides(rawValue: 1 << 1)
        package static let minimumTLS = Overrides(rawValue: 1 << 2)
        package static let forwardSecrecy = Overrides(rawValue: 1 << 3)
        /// The request's fields (the `User-Agent` and any other): the recorded ones are not put back.
        package static let requestHeaders = Overrides(rawValue: 1 << 4)
        package static let expireAfter = Overrides(rawValue: 1 << 5)
        /// An app's own App Transport Security and request (its exceptions, its User-Agent): none of the
        /// recorded ones is put back.
        package static let app = Overrides(rawValue: 1 << 6)
    }

    /// Where attachments go and how images are downloaded, with the settings given or their defaults.
    package var configuration: ExtensionConfiguration
    /// When time-will-expire comes after delivery, given or the default.
    package var expireAfter: Duration
    /// Which of the settings above were given.
    package var overrides: Overrides = []
    /// The instant certificates are judged at; nil: each recording's own start.
    package var at: Timestamp?
    /// Read image text without an `encoding` as Latin-1 bytes (ProxyPin).
    package var latin1 = false
    /// Certificates (DER, leaf first) to judge the first host's connection by, when the capture has none.
    package var chain: [[UInt8]] = []
    /// Query parameter names ignored when URLs are matched, beside the defaults.
    package var ignoredQuery: Set<String> = []

    /// Settings starting from `configuration` and `expireAfter`.
    package init(configuration: ExtensionConfiguration, expireAfter: Duration) {
        self.configuration = configuration
        self.expireAfter = expireAfter
    }

    /// The download settings for a capture recorded under `recorded`: each recorded one that was not
    /// asked for replaces the default; the request's recorded fields are put back unless fields were given.
    package func download(recorded: HARCarillon.Options?) -> DownloadConfiguration {
        var download = configuration.download
        guard let recorded else { return download }
        let app = overrides.contains(.app)
        if !overrides.contains(.budget), let budget = recorded.budget { download.limits.budget = budget }
        if !overrides.contains(.maximumBytes), let bytes = recorded.maximumBytes { download.limits.maximumBytes = bytes }
        if !app, !overrides.contains(.minimumTLS), let minimum = recorded.minimumTLS { download.transportSecurity.minimumTLS = minimum }
        if !app, !overrides.contains(.forwardSecrecy), let required = recorded.requiresForwardSecrecy {
            download.transportSecurity.requiresForwardSecrecy = required
        }
        if !app, !recorded.exceptions.isEmpty {
            // The recorded app's exceptions, with an explicit answer to "would this exception have fixed it?"
            // in force for every host, as a live run with the app holds them.
            download.transportSecurityPolicy.exceptions = recorded.exceptions
            download.transportSecurityPolicy = download.transportSecurityPolicy.overriding(
                minimumTLS: overrides.contains(.minimumTLS) ? download.transportSecurity.minimumTLS : nil,
                requiresForwardSecrecy: overrides.contains(.forwardSecrecy) ? false : nil)
        }
        if !app, !overrides.contains(.requestHeaders), !recorded.requestHeaders.isEmpty {
            var headers = download.requestHeaders
            for field in recorded.requestHeaders { headers.set(field) }
            download.requestHeaders = headers
        }
        return download
    }

    /// When time-will-expire comes for a capture recorded under `recorded`: as asked, else as recorded.
    package func expiry(recorded: HARCarillon.Options?) -> Duration {
        guard !overrides.contains(.expireAfter), let recorded = recorded?.expireAfter else { return expireAfter }
        return recorded
    }

    /// Query parameters ignored when URLs are matched: the defaults and those asked for.
    var comparison: HARURLComparison {
        HARURLComparison(ignoredQuery: HARURLComparison.defaultIgnoredQuery.union(ignoredQuery))
    }
}
