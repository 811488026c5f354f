extension TransportSecurity {
    /// The protocol a recorded connection negotiated, from OpenSSL's name ("TLSv1.2"); nil for a name
    /// it does not know.
    static func version(named name: String) -> TLSVersion? {
        switch name {
        case "TLSv1", "TLSv1.0": .v1_0
        case "TLSv1.1": .v1_1
        case "TLSv1.2": .v1_2
        case "TLSv1.3": .v1_3
        default: nil
        }
    }

    /// Whether these settings would have let a handshake end with `tls` (a recorded connection's
    /// protocol and suite): nil when they would, else the handshake failure's words, as OpenSSL would
    /// put them, so that ``handshakeDetail(_:)`` names the rule.
    func refusal(of tls: DownloadTrace.TLS) -> String? {
        guard let version = TransportSecurity.version(named: tls.version) else { return nil }
        if version < minimumTLS {
            return "unsupported protocol: the recorded connection negotiated \(tls.version)"
        }
        // TLS 1.3's suites are all forward secret; below it, only the suites offered could be agreed.
        guard version < .v1_3 else { return nil }
        var offered = TransportSecurity.forwardSecretSuites
        if !requiresForwardSecrecy { offered += TransportSecurity.rsaKeyExchangeSuites }
        if offered.contains(tls.cipher) { return nil }
        return "handshake failure: the recorded connection agreed on \(tls.cipher)"
    }
}
