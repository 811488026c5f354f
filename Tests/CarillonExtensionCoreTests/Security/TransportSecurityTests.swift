import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What the ATS settings offer in the handshake, and how a failed handshake is named.
@Suite struct TransportSecurityTests {
    @Test func defaultOffersOnlyECDHEWithAES() {
        let suites = TransportSecurity.appTransportSecurity.cipherList.split(separator: ":")
        #expect(suites.count == 12)
        #expect(suites.allSatisfy { $0.hasPrefix("ECDHE-") && $0.contains("AES") })
    }

    @Test func withoutForwardSecrecyAddsRSAKeyExchangeButNeverDHE() {
        let suites = TransportSecurity(requiresForwardSecrecy: false).cipherList.split(separator: ":")
        #expect(suites.count == 18)
        #expect(suites.contains("AES128-GCM-SHA256"))
        #expect(!suites.contains { $0.hasPrefix("DHE-") })
    }

    @Test(arguments: [(TransportSecurity.TLSVersion.v1_0, true), (.v1_1, true), (.v1_2, false), (.v1_3, false)])
    func oldVersionsNeedSecurityLevelZero(version: TransportSecurity.TLSVersion, levelZero: Bool) {
        #expect(TransportSecurity(minimumTLS: version).cipherList.hasSuffix(":@SECLEVEL=0") == levelZero)
    }

    /// The library's words name the Info.plist exception; the rule rides along as the cause, for a caller
    /// that words it itself (the tool's words: OutcomeWordingTests).
    @Test(arguments: [
        (
            TransportSecurity(), "error:0A00042E:SSL routines::tlsv1 alert protocol version",
            "TLS version: the server offers no version from TLS 1.2 up (App Transport Security; NSExceptionMinimumTLSVersion) (error:0A00042E:SSL routines::tlsv1 alert protocol version)",
            TransportSecurity.HandshakeRule.tlsVersion(minimum: .v1_2)
        ),
        (
            TransportSecurity(minimumTLS: .v1_3), "unsupported protocol",
            "TLS version: the server offers no version from TLS 1.3 up (App Transport Security; NSExceptionMinimumTLSVersion) (unsupported protocol)",
            .tlsVersion(minimum: .v1_3)
        ),
        (
            TransportSecurity(), "error:0A000410:SSL routines::sslv3 alert handshake failure",
            "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE with AES (forward secrecy; NSExceptionRequiresForwardSecrecy NO adds RSA key exchange), and the server offers none of them (error:0A000410:SSL routines::sslv3 alert handshake failure)",
            .cipherSuite(requiresForwardSecrecy: true)
        ),
        (
            TransportSecurity(requiresForwardSecrecy: false), "sslv3 alert handshake failure",
            "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE or RSA key exchange with AES (no finite-field DHE), and the server offers none of them (sslv3 alert handshake failure)",
            .cipherSuite(requiresForwardSecrecy: false)
        ),
        (
            TransportSecurity(), "SSL certificate problem: unable to get local issuer certificate",
            "SSL certificate problem: unable to get local issuer certificate", nil
        ),
    ])
    func namesTheRuleAHandshakeBroke(security: TransportSecurity, message: String, detail: String, rule: TransportSecurity.HandshakeRule?) {
        let outcome = security.handshakeOutcome(message)
        #expect(outcome.reason == .tls)
        #expect(outcome.detail == detail)
        #expect(outcome.cause == rule.map { .transportSecurity($0, libcurlMessage: message) })
    }
}
