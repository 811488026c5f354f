@_spi(Tooling) import CarillonExtensionCore

extension Outcome {
    /// ``Outcome/detail`` as the tool prints it. The core words a broken App Transport Security rule
    /// with the Info.plist exception that would allow the server; the tool names its own option for it
    /// (`--tls-minimum`, `--no-forward-secrecy`), from the options' declarations.
    var printedDetail: String {
        guard case .transportSecurity(let rule, let curl)? = cause else { return detail }
        return rule.detail(
            libcurlMessage: curl, minimumTLS: PipelineOptions.tlsMinimum.spec.name,
            forwardSecrecy: PipelineOptions.noForwardSecrecy.spec.name)
    }

    /// Under `--app` the fix a person needs is the extension's own exception for the host, not an option:
    /// the rule worded with the Info.plist keys, where they go, and `host`.
    /// Any other outcome is itself.
    func wordedForApp(host: String?) -> Outcome {
        guard case .transportSecurity(let rule, let curl)? = cause else { return self }
        let place = "NSExceptionDomains → \(host.map { "'\(Quoting.display($0))'" } ?? "the host")\(Self.appWordingMark)"
        let detail = rule.detail(
            libcurlMessage: curl, minimumTLS: "NSExceptionMinimumTLSVersion under \(place)",
            forwardSecrecy: "NSExceptionRequiresForwardSecrecy NO under \(place)")
        return Outcome(reason, detail)
    }

    /// What ends the place ``wordedForApp(host:)`` names: a recording's detail holding it was made under `--app`.
    static let appWordingMark = " in the extension's Info.plist"
}

extension ServiceResult {
    /// ``Outcome/wordedForApp(host:)`` for this result's download.
    mutating func wordRefusalForApp() {
        let host = trace?.host ?? imageURL.flatMap { try? ImageURL(validating: $0).host }
        outcome = outcome.wordedForApp(host: host)
    }
}
