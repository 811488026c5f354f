import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// App Transport Security against real TLS listeners, one per case (TestAssets/Server/README.md):
/// what iOS refuses is `tls` naming the rule; what it accepts is attached; the Info.plist exceptions
/// change exactly what they should.
@Suite struct CurlDownloaderTransportSecurityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var listener: String
        var security = TransportSecurity.appTransportSecurity
        /// The detail up to libcurl's part, and libcurl's code; nil: attached.
        var detail: String?
        var curlCode: Int32 = 0
        var testDescription: String {
            "\(listener) with TLS ≥ \(security.minimumTLS.rawValue)\(security.requiresForwardSecrecy ? "" : ", no forward secrecy")"
        }
    }

    static let forwardSecrecy =
        "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE with AES (forward secrecy; NSExceptionRequiresForwardSecrecy NO adds RSA key exchange), and the server offers none of them"
    static let refused = "App Transport Security refused the server's certificate: "

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            // iOS refuses these.
            Case(
                listener: "ats_cn_only",
                detail: refused
                    + "host name: '127.0.0.1' is not in the leaf certificate's subjectAltName (the common name is never used)", curlCode: 60
            ),
            Case(
                listener: "ats_no_eku",
                detail: refused
                    + "extended key usage: the leaf certificate has no extendedKeyUsage; leaves issued since 2019-07-01 need serverAuth",
                curlCode: 60),
            Case(
                listener: "ats_ten_years",
                detail: refused
                    + "validity: the leaf certificate is valid for 3650 days; leaves issued since 2019-07-01 may be valid for 825 days at most",
                curlCode: 60),
            Case(listener: "ats_rsa_kex", detail: forwardSecrecy, curlCode: 35),
            Case(listener: "ats_ffdhe", detail: forwardSecrecy, curlCode: 35),
            Case(
                listener: "ats_ffdhe", security: TransportSecurity(requiresForwardSecrecy: false),
                detail:
                    "cipher suite: under TLS 1.2 App Transport Security allows only ECDHE or RSA key exchange with AES (no finite-field DHE), and the server offers none of them",
                curlCode: 35),
            Case(
                listener: "ats_tls12_ecdhe", security: TransportSecurity(minimumTLS: .v1_3),
                detail:
                    "TLS version: the server offers no version from TLS 1.3 up (App Transport Security; NSExceptionMinimumTLSVersion)",
                curlCode: 35),
            Case(
                listener: "ats_tls11",
                detail: "TLS version: the server offers no version from TLS 1.2 up (App Transport Security; NSExceptionMinimumTLSVersion)",
                curlCode: 35),
            // The exceptions do not lift the certificate rules.
            Case(
                listener: "ats_cn_only", security: TransportSecurity(minimumTLS: .v1_0, requiresForwardSecrecy: false),
                detail: refused
                    + "host name: '127.0.0.1' is not in the leaf certificate's subjectAltName (the common name is never used)", curlCode: 60
            ),
            // iOS accepts these.
            Case(listener: "ats_intermediate"),
            Case(listener: "ats_tls13"),
            Case(listener: "ats_tls13", security: TransportSecurity(minimumTLS: .v1_3)),
            Case(listener: "ats_tls12_ecdhe"),
            Case(listener: "ats_rsa2048"),
            Case(listener: "ats_rsa_kex", security: TransportSecurity(requiresForwardSecrecy: false)),
            Case(listener: "ats_tls12_ecdhe", security: TransportSecurity(minimumTLS: .v1_0)),
            Case(listener: "ats_tls11", security: TransportSecurity(minimumTLS: .v1_1)),
        ])
    func appliesAppTransportSecurity(_ test: Case) async throws {
        let server = TestServer.shared
        try #require(server.atsPorts[test.listener] != nil, "the server has no \(test.listener) listener")
        let configuration = DownloadConfiguration(
            // Generous: the server's RSA key may still be in the making (TestAssets/Server/README.md).
            limits: DownloadLimits(budget: .seconds(15), maximumBytes: 10_485_760), extraCAFile: server.caFile,
            transportSecurity: test.security)
        let download = try await CurlDownloaderTests.download(
            server.url("/img/png", onATSListener: test.listener), pool: DownloaderPool(configuration: configuration))
        if let detail = test.detail {
            let failure = try #require(download.report.failure)
            #expect(failure.reason == .tls)
            #expect(failure.detail.hasPrefix(detail + " (libcurl error \(test.curlCode): "), "\(failure.detail)")
            #expect(download.body.isEmpty)
        } else {
            #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
            #expect(download.body.count == 11_352)
        }
    }

    /// The main listener (EC P-256, TLS 1.3, a 7-day leaf with SAN and serverAuth) passes, and a 308 to
    /// the same host stays on its connection.
    @Test(.timeLimit(.minutes(1)))
    func theMainListenerAndASameHostRedirectPass() async throws {
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: CurlDownloaderTests.configuration(server))
        let download = try await CurlDownloaderTests.download(server.url("/redirect/308"), pool: pool)
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.report.hops.map(\.status) == [308, 200])
        #expect(download.report.hops.map(\.newConnection) == [true, false])
    }
}
