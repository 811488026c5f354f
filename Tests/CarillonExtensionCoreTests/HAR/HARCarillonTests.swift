import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `_carillon` read and written by its one owner: `log._carillon.connections` read back into recorded
/// connections, the recorded settings, and each member written and read back unchanged.
@Suite struct HARCarillonTests {
    static let tls11: DownloadTrace.TLS = {
        var tls = DownloadTrace.TLS(version: "TLSv1.1", cipher: "ECDHE-ECDSA-AES256-SHA")
        tls.group = "X25519"
        return tls
    }()
    static let relaxed: RecordedConnection = {
        var connection = RecordedConnection(id: "r1", tls: tls11)
        connection.relaxedTLS = true
        return connection
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
            [RecordedConnection(id: "c1", offered: "r1"), HARCarillonTests.relaxed]
        ),
        (#"{"format":1}"#, []),
        (#"{"connections":"c1"}"#, []),
    ])
    func readsEachConnection(json: String, expected: [RecordedConnection]) throws {
        let carillon = try #require(HARCarillon(try JSONParser.parse(Array(json.utf8))))
        #expect(carillon.connections == expected)
        // Written and read again, each connection is the same.
        #expect(try #require(HARCarillon(carillon.json)).connections == expected)
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
        #expect(HARCarillon(try JSONParser.parse(Array(json.utf8)))?.recordedSecurity == expected)
    }

    @Test func nothingWithoutACarillonLog() throws {
        #expect(HARCarillon(nil) == nil)
        #expect(HARCarillon(.array([])) == nil)
    }

    /// Every setting the verdict depended on is written and read back as it was: the extra trust and
    /// time-will-expire included.
    @Test func theOptionsRoundTrip() throws {
        var configuration = DownloadConfiguration(
            limits: DownloadLimits(budget: .milliseconds(1500), maximumBytes: 2048),
            transportSecurity: TransportSecurity(minimumTLS: .v1_1, requiresForwardSecrecy: false))
        configuration.requestHeaders.set(HTTPField(name: "X-Debug", value: "1"))
        configuration.transportSecurityPolicy.exceptions = [
            .init(domain: "127.0.0.1", security: TransportSecurity(minimumTLS: .v1_1)),
            .init(domain: "example.com", includesSubdomains: true, allowsInsecureHTTPLoads: true),
        ]
        var log = HARCarillon()
        log.options = HARCarillon.Options(configuration, expireAfter: .seconds(3), trust: [[0x30, 0x82], [1, 2, 3]])
        log.payload = ["carillon": ["image": "https://a.example/i.png"]]
        log.verdict = ["reason": "attached"]
        let read = try #require(HARCarillon(log.json))
        #expect(read.options == log.options)
        #expect(read.options?.budget == .milliseconds(1500) && read.options?.expireAfter == .seconds(3))
        #expect(read.options?.trust == [[0x30, 0x82], [1, 2, 3]])
        #expect(read.options?.exceptions == configuration.transportSecurityPolicy.exceptions)
        #expect(read.recordedSecurity == TransportSecurity(minimumTLS: .v1_1, requiresForwardSecrecy: false))
        #expect(read.imageURL == "https://a.example/i.png")
        #expect(read.verdict == ["reason": "attached"])
        #expect(read.sharedWith == nil)
    }

    /// A shared download's other payload names the first one's file, and has no connections of its own.
    @Test(arguments: [String?.some("first.har"), nil])
    func aSharedRecordingNamesItsFirst(first: String?) throws {
        var log = HARCarillon()
        log.sharedWith = .some(first)
        let json = log.json
        #expect(json["connections"] == nil)
        #expect(json["shared_with"] == first.map { .string($0) } ?? .null)
        #expect(try #require(HARCarillon(json)).sharedWith == .some(first))
    }

    /// An entry's `_carillon` written and read back unchanged, and a member of a wrong type read as absent.
    @Test func anEntryRoundTrips() throws {
        var entry = HARCarillon.Entry()
        entry.hop = 2
        entry.remote = "127.0.0.1:443"
        entry.headRaw = ("SFRUUC8xLjEgMjAwDQoNCg==", false)
        entry.wire = .init(bytes: 20, sha256: "ab", place: .file("bodies/ab.wire"))
        entry.wireBytes = 20
        entry.decoded = .init(bytes: 30, sha256: "cd", lastPiece: 30)
        entry.arrival = [(1.5, 10), (2.25, 30)]
        entry.end = RecordedHop.End(curlCode: 28, message: "Timeout was reached", cancelled: false)
        entry.timings = DownloadTrace.Timings(dns: 0.5, connect: 1, tls: nil, firstByte: nil, total: 1500)
        entry.relaxedTLS = true
        let read = try #require(HARCarillon.Entry(entry.json))
        #expect(read == entry)
        #expect(read.microseconds == [500, 1000, 0, 0, 1_500_000])
        let odd = try #require(
            HARCarillon.Entry(["hop": "one", "end": ["curl_code": .number("1.5")], "timings_ms": [1, 2], "arrival": [[1]]]))
        #expect(odd.hop == nil && odd.end == nil && odd.timings == nil && odd.arrival.isEmpty)
    }
}
