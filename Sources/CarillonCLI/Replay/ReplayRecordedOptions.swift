@_spi(Tooling) import CarillonExtensionCore

/// The options a carillon recording was made with (`log._carillon.options`), as the replay's defaults:
/// the budget, the byte cap, the TLS minimum, forward secrecy and the request's header fields. An
/// option given on the command line wins over the recorded one.
enum ReplayRecordedOptions {
    /// The names of the options that override a recorded one, as given on the command line.
    static func given(_ arguments: ParsedArguments) -> Set<String> {
        typealias Options = PipelineOptions
        let valued = [Options.budget.spec.name, Options.maxBytes.spec.name, Options.tlsMinimum.spec.name, Options.userAgent.spec.name]
        var given = Set(valued.filter { arguments.value($0) != nil })
        if arguments.has(Options.noForwardSecrecy.spec.name) { given.insert(Options.noForwardSecrecy.spec.name) }
        // --app stands for the extension's own ATS and User-Agent: the recorded ones give way to it.
        if arguments.value(Options.app.spec.name) != nil {
            given.formUnion([Options.tlsMinimum.spec.name, Options.noForwardSecrecy.spec.name, Options.userAgent.spec.name])
        }
        return given
    }

    /// `download` with each recorded option that `given` does not name; unchanged without a recording's options.
    static func apply(_ recorded: JSONValue?, to download: DownloadConfiguration, given: Set<String>) -> DownloadConfiguration {
        typealias Options = PipelineOptions
        guard let recorded, recorded.isObject else { return download }
        var download = download
        if !given.contains(Options.budget.spec.name), let milliseconds = recorded["budget_ms"]?.doubleValue, milliseconds > 0 {
            download.limits.budget = .milliseconds(Int64(milliseconds))
        }
        if !given.contains(Options.maxBytes.spec.name), let bytes = recorded["max_bytes"]?.doubleValue, bytes > 0, bytes < 1e15 {
            download.limits.maximumBytes = Int(bytes)
        }
        if !given.contains(Options.tlsMinimum.spec.name), let text = recorded["tls_minimum"]?.stringValue,
            let minimum = TransportSecurity.TLSVersion(rawValue: text)
        {
            download.transportSecurity.minimumTLS = minimum
        }
        if !given.contains(Options.noForwardSecrecy.spec.name), case .bool(let required)? = recorded["forward_secrecy"] {
            download.transportSecurity.requiresForwardSecrecy = required
        }
        if !given.contains(Options.userAgent.spec.name), case .array(let fields)? = recorded["request_headers"], !fields.isEmpty {
            var headers = download.requestHeaders
            for field in fields {
                guard let name = field["name"]?.stringValue, let value = field["value"]?.stringValue else { continue }
                headers.set(HTTPField(name: name, value: value))
            }
            download.requestHeaders = headers
        }
        return download
    }
}
