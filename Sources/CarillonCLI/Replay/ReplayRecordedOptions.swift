@_spi(Tooling) import CarillonExtensionCore

/// The options a carillon recording was made with (`log._carillon.options`), as the replay's defaults:
/// the budget, the byte cap, the TLS minimum, forward secrecy and the request's header fields. An
/// option given on the command line wins over the recorded one.
enum ReplayRecordedOptions {
    /// The names of the options that override a recorded one, as given on the command line.
    static func given(_ arguments: ParsedArguments) -> Set<String> {
        typealias Options = ProcessCommand.Options
        let valued = [Options.budget.spec.name, Options.maxBytes.spec.name, Options.tlsMinimum.spec.name, Options.userAgent.spec.name]
        return Set(valued.filter { arguments.value($0) != nil })
            .union([Options.noForwardSecrecy.spec.name].filter { arguments.has($0) })
    }

    /// `download` with each recorded option that `given` does not name; unchanged without a recording's options.
    static func apply(_ recorded: HARCarillon.Options?, to download: DownloadConfiguration, given: Set<String>) -> DownloadConfiguration {
        typealias Options = ProcessCommand.Options
        guard let recorded else { return download }
        var download = download
        if !given.contains(Options.budget.spec.name), let budget = recorded.budget { download.limits.budget = budget }
        if !given.contains(Options.maxBytes.spec.name), let bytes = recorded.maximumBytes { download.limits.maximumBytes = bytes }
        if !given.contains(Options.tlsMinimum.spec.name), let minimum = recorded.minimumTLS {
            download.transportSecurity.minimumTLS = minimum
        }
        if !given.contains(Options.noForwardSecrecy.spec.name), let required = recorded.requiresForwardSecrecy {
            download.transportSecurity.requiresForwardSecrecy = required
        }
        if !given.contains(Options.userAgent.spec.name), !recorded.requestHeaders.isEmpty {
            var headers = download.requestHeaders
            for field in recorded.requestHeaders { headers.set(field) }
            download.requestHeaders = headers
        }
        return download
    }
}
