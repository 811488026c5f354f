import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `log._carillon.connections` read back into recorded connections, as the recording side writes them.
@Suite struct HARConnectionsTests {
    static let tls11: DownloadTrace.TLS = {
        var tls = DownloadTrace.TLS(version: "TLSv1.1", cipher: "ECDHE-ECDSA-AES256-SHA")
        tls.group = "X25519"
        return tls
    }()

    @Test(arguments: [
        (
            #"{"connections":[{"id":"c1","tls":{"version":"TLSv1.3","cipher":"TLS_AES_256_GCM_SHA384","resumed":false,"certificate_requested":true},"chain":{"encoding":"base64-der","certs":["AQID","BAU="]}}]}"#,
            [
                RecordedConnection(
                    id: "c1", tls: DownloadTrace.TLS(version: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384"), certificateRequested: true,
                    chain: [[1, 2, 3], [4, 5]])
            ]
        ),
        // A refused handshake: no TLS facts, no chain.
        (#"{"connections":[{"id":"c1","tls":null,"chain":{"encoding":"base64-der","certs":[]}}]}"#, [RecordedConnection(id: "c1")]),
        // A resumed session sends no chain; broken base64 and a connection without an id are left out.
        (
            #"{"connections":[{"id":"c2","tls":{"version":"TLSv1.2","cipher":"X","resumed":true},"chain":{"certs":["@@","AQ=="]}},{"tls":null}]}"#,
            [RecordedConnection(id: "c2", tls: DownloadTrace.TLS(version: "TLSv1.2", cipher: "X"), chain: [[1]], resumed: true)]
        ),
        // A handshake refused for its protocol or suite names the connection it was asked again on, relaxed.
        (
            #"{"connections":[{"id":"c1","tls":null,"offered":"r1"},{"id":"r1","tls":{"version":"TLSv1.1","cipher":"ECDHE-ECDSA-AES256-SHA","group":"X25519"},"relaxed_tls":true}]}"#,
            [RecordedConnection(id: "c1", offered: "r1"), RecordedConnection(id: "r1", tls: HARConnectionsTests.tls11)]
        ),
        (#"{"format":1}"#, []),
        (#"{"connections":"c1"}"#, []),
    ])
    func readsEachConnection(json: String, expected: [RecordedConnection]) throws {
        let carillon = try JSONParser.parse(Array(json.utf8))
        #expect(HARConnections.read(carillon) == expected)
    }

    /// The settings a recording was made under, from `options`: both or nothing.
    @Test(
        arguments: [
            (#"{"options":{"tls_minimum":"1.2","forward_secrecy":true}}"#, TransportSecurity()),
            (
                #"{"options":{"tls_minimum":"1.0","forward_secrecy":false}}"#,
                TransportSecurity(minimumTLS: .v1_0, requiresForwardSecrecy: false)
            ),
            (#"{"options":{"tls_minimum":"1.4","forward_secrecy":true}}"#, nil),
            (#"{"options":{"tls_minimum":"1.2"}}"#, nil),
            (#"{"format":1}"#, nil),
        ] as [(String, TransportSecurity?)])
    func readsTheRecordedSecurity(json: String, expected: TransportSecurity?) throws {
        #expect(HARConnections.recordedSecurity(try JSONParser.parse(Array(json.utf8))) == expected)
    }

    @Test func nothingWithoutACarillonLog() {
        #expect(HARConnections.read(nil) == [])
    }
}
