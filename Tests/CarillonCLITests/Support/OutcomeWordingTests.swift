import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// The tool words the App Transport Security rule a handshake broke with its own options; every other
/// outcome prints the core's detail as it is.
@Suite struct OutcomeWordingTests {
    @Test(arguments: [
        (
            TransportSecurity.HandshakeRule?.some(.tlsVersion(minimum: .v1_2)), "error:0A00042E:SSL routines::tlsv1 alert protocol version",
            "TLS version: the server offers no version from TLS 1.2 up (App Transport Security; --tls-minimum) (error:0A00042E:SSL routines::tlsv1 alert protocol version)"
        ),
        (
            .tlsVersion(minimum: .v1_3), "unsupported protocol",
            "TLS version: the server offers no version from TLS 1.3 up (App Transport Security; --tls-minimum) (unsupported protocol)"
        ),
        (
            .cipherSuite(requiresForwardSecrecy: true), "error:0A000410:SSL routines::sslv3 alert handshake failure",
            "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE with AES (forward secrecy; --no-forward-secrecy adds RSA key exchange), and the server offers none of them (error:0A000410:SSL routines::sslv3 alert handshake failure)"
        ),
        (
            .cipherSuite(requiresForwardSecrecy: false), "sslv3 alert handshake failure",
            "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE or RSA key exchange with AES (no finite-field DHE), and the server offers none of them (sslv3 alert handshake failure)"
        ),
        (
            nil, "SSL certificate problem: unable to get local issuer certificate",
            "SSL certificate problem: unable to get local issuer certificate"
        ),
    ])
    func aBrokenRuleNamesTheOptionThatRelaxesIt(rule: TransportSecurity.HandshakeRule?, message: String, printed: String) {
        let outcome = Outcome(
            .tls, rule?.detail(libcurlMessage: message) ?? message, cause: rule.map { .transportSecurity($0, libcurlMessage: message) })
        #expect(outcome.printedDetail == printed)
    }

    @Test func anOutcomeWithoutACauseIsPrintedAsTheCoreWordedIt() {
        #expect(Outcome(.httpStatus, "final response status 404").printedDetail == "final response status 404")
    }
}
