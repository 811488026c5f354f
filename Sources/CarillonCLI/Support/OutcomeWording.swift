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
}
