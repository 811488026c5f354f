import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A handshake recorded as refused for its protocol or suite, judged again under other settings from
/// what the server offered a relaxed request (``OfferedHandshake/judge(message:offered:security:recordedSecurity:answered:)``).
@Suite struct OfferedHandshakeTests {
    static let version = "SSL connect error (OpenSSL/3.0.22: error:0A00042E:SSL routines::tlsv1 alert protocol version)"
    static let suite = "SSL connect error (OpenSSL/3.0.22: error:0A000410:SSL routines::sslv3 alert handshake failure)"
    static let ats = TransportSecurity()
    static let tls11 = TransportSecurity(minimumTLS: .v1_1)
    static let tls10 = TransportSecurity(minimumTLS: .v1_0)
    static let noForwardSecrecy = TransportSecurity(requiresForwardSecrecy: false)

    static func offered(_ version: String?, _ cipher: String = "", chain: [[UInt8]] = []) -> RecordedConnection {
        RecordedConnection(id: "r1", tls: version.map { DownloadTrace.TLS(version: $0, cipher: cipher) }, chain: chain)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var message: String
        var offered: RecordedConnection?
        var security: TransportSecurity
        var recorded: TransportSecurity? = OfferedHandshakeTests.ats
        var answered = true
        var expected: OfferedHandshake.Verdict
        var testDescription: String { name }
    }

    @Test(arguments: [
        // Without a relaxed request: the recorded refusal, unless the settings now let more through.
        Case(name: "old recording, same settings", message: version, security: ats, expected: .asRecorded),
        Case(name: "old recording, settings unknown", message: version, security: tls11, recorded: nil, expected: .asRecorded),
        Case(
            name: "old recording, a stricter minimum", message: version, security: TransportSecurity(minimumTLS: .v1_3),
            expected: .asRecorded),
        Case(name: "old recording, a lower minimum", message: version, security: tls11, expected: .undetermined(why: noAnswer)),
        Case(name: "old recording, forward secrecy off for a version", message: version, security: noForwardSecrecy, expected: .asRecorded),
        Case(
            name: "old recording, forward secrecy off for a suite", message: suite, security: noForwardSecrecy,
            expected: .undetermined(why: noAnswer)),
        Case(name: "old recording, a lower minimum for a suite", message: suite, security: tls10, expected: .undetermined(why: noAnswer)),
        // TLS 1.1 with ECDHE: refused by ATS's minimum, accepted from 1.1 down.
        Case(
            name: "TLS 1.1, recorded settings", message: version, offered: offered("TLSv1.1", "ECDHE-ECDSA-AES256-SHA"), security: ats,
            expected: .asRecorded),
        Case(
            name: "TLS 1.1, minimum 1.1", message: version, offered: offered("TLSv1.1", "ECDHE-ECDSA-AES256-SHA"), security: tls11,
            expected: .alternative(connection: "r1")),
        Case(
            name: "TLS 1.1, forward secrecy off", message: version, offered: offered("TLSv1.1", "ECDHE-ECDSA-AES256-SHA"),
            security: noForwardSecrecy, expected: .asRecorded),
        Case(
            name: "TLS 1.1 passes, its answer not recorded", message: version, offered: offered("TLSv1.1", "ECDHE-ECDSA-AES256-SHA"),
            security: tls11,
            answered: false,
            expected: .undetermined(
                why: "the server offers TLSv1.1 with ECDHE-ECDSA-AES256-SHA, accepted now, and its answer was not recorded")),
        // RSA key exchange under TLS 1.2: refused for its suite, accepted without forward secrecy.
        Case(
            name: "RSA key exchange, recorded settings", message: suite, offered: offered("TLSv1.2", "AES128-GCM-SHA256"), security: ats,
            expected: .asRecorded),
        Case(
            name: "RSA key exchange, minimum 1.1", message: suite, offered: offered("TLSv1.2", "AES128-GCM-SHA256"), security: tls11,
            expected: .asRecorded),
        Case(
            name: "RSA key exchange, forward secrecy off", message: suite, offered: offered("TLSv1.2", "AES128-GCM-SHA256"),
            security: noForwardSecrecy, expected: .alternative(connection: "r1")),
        // TLS 1.0 with RSA key exchange, refused live for its version: a lower minimum meets the suite rule.
        Case(
            name: "TLS 1.0 RSA, minimum 1.0", message: version, offered: offered("TLSv1", "AES128-SHA"), security: tls10,
            expected: .refused(words: "handshake failure: the recorded connection agreed on AES128-SHA")),
        Case(
            name: "TLS 1.0 RSA, forward secrecy off, minimum 1.2", message: version, offered: offered("TLSv1", "AES128-SHA"),
            security: noForwardSecrecy,
            expected: .asRecorded),
        Case(
            name: "TLS 1.0 RSA, both relaxed", message: version, offered: offered("TLSv1", "AES128-SHA"),
            security: TransportSecurity(minimumTLS: .v1_0, requiresForwardSecrecy: false), expected: .alternative(connection: "r1")),
        // The relaxed request was refused too: before any certificate (every setting refuses), or for its chain.
        Case(name: "refused when relaxed too", message: suite, offered: offered(nil), security: noForwardSecrecy, expected: .asRecorded),
        Case(
            name: "relaxed request's chain refused", message: suite, offered: offered(nil, chain: [[1]]), security: noForwardSecrecy,
            expected: .undetermined(
                why: "with relaxed TLS rules the server's chain was refused, so the protocol and suite it offers were not recorded")),
    ])
    func judgesTheOffer(_ row: Case) {
        let verdict = OfferedHandshake.judge(
            message: row.message, offered: row.offered, security: row.security, recordedSecurity: row.recorded, answered: row.answered)
        #expect(verdict == row.expected)
    }

    static let noAnswer =
        "the handshake was refused for its TLS protocol or cipher suite, and the recording holds no answer from the server with"
        + " those rules relaxed (recorded before it asked)"

    /// A refusal the offer's words put in another rule reads as that rule, as a live run's would.
    @Test func anotherRulesWordsNameThatRule() throws {
        let words = try #require(
            TransportSecurity(minimumTLS: .v1_0).refusal(of: DownloadTrace.TLS(version: "TLSv1", cipher: "AES128-SHA")))
        #expect(TransportSecurity(minimumTLS: .v1_0).handshakeRule(words) == .cipherSuite(requiresForwardSecrecy: true))
    }
}
