@_spi(Tooling) import CarillonExtensionCore

extension Outcome {
    /// ``Outcome/detail`` as the tool prints it. The core words a broken App Transport Security rule
    /// with the Info.plist exception that would allow the server; the tool names its own option for it
    /// (`--tls-minimum`, `--no-forward-secrecy`), from the options' declarations.
    var printedDetail: String {
        guard case .transportSecurity(let rule, let curl)? = cause else { return detail }
        switch rule {
        case .tlsVersion(let minimum):
            let option = ProcessCommand.Options.tlsMinimum.spec.name
            return "TLS version: the server offers no version from TLS \(minimum.rawValue) up (App Transport Security; \(option)) (\(curl))"
        case .cipherSuite(let requiresForwardSecrecy):
            let allowed = TransportSecurity.HandshakeRule.allowedSuites(
                requiresForwardSecrecy: requiresForwardSecrecy, relaxedBy: ProcessCommand.Options.noForwardSecrecy.spec.name)
            return "cipher suite: under TLS 1.2 App Transport Security allows only \(allowed), and the server offers none of them (\(curl))"
        }
    }
}
