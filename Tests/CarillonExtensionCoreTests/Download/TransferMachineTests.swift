import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The download's decisions fed through the seam, without a socket: recorded hops go through
/// ``RecordedTransferSource`` and ``TransferFeed/run(_:configuration:source:tap:sink:)``, the loop libcurl is
/// driven by too.
@Suite struct TransferMachineTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 92)

    static func hop(
        _ url: String, _ status: String, _ fields: [(String, String)] = [], body: RecordedHop.Body = .bytes(png), code: Int32 = 0
    ) -> RecordedHop {
        RecordedHop(
            url: url, statusLine: "HTTP/1.1 \(status)", fields: fields.map { HTTPField(name: $0.0, value: $0.1) }, body: body,
            end: RecordedHop.End(curlCode: code))
    }

    struct Run {
        var report: TransferReport
        var delivered: Int
        var gaps: [RecordedTransferSource.Gap]
    }

    static func run(
        _ hops: [RecordedHop], connections: [RecordedConnection] = [], url: String = "https://img.test/a.png",
        configuration: DownloadConfiguration = DownloadConfiguration()
    ) -> Run {
        var source = RecordedTransferSource(
            transfer: RecordedTransfer(hops: hops, connections: connections), configuration: configuration, at: 1_800_000_000)
        var delivered = 0
        let report = TransferFeed.run(
            try! ImageURL(validating: url), configuration: configuration, source: &source,
            sink: { piece in
                delivered += piece.count
                return true
            })
        return Run(report: report, delivered: delivered, gaps: source.gaps)
    }

    static let cases: [(String, [RecordedHop], Reason?)] = [
        ("a 200 image", [hop("https://img.test/a.png", "200 OK", [("Content-Length", "100")])], nil),
        ("a 404", [hop("https://img.test/a.png", "404 Not Found")], .httpStatus),
        ("a 304 from a cache", [hop("https://img.test/a.png", "304 Not Modified", body: .bytes([]))], .httpStatus),
        ("a 200 with an empty body", [hop("https://img.test/a.png", "200 OK", body: .bytes([]))], .emptyBody),
        (
            "a redirect stored after its target",
            [
                hop("https://img.test/b.png", "200 OK"),
                hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")], body: .absent(why: "not kept")),
            ], nil
        ),
        ("a redirect to http", [hop("https://img.test/a.png", "301 Moved", [("Location", "http://img.test/b.png")])], .insecureURL),
        ("a redirect without Location", [hop("https://img.test/a.png", "307 Temporary")], .httpStatus),
        (
            "six redirects",
            (0..<6).map {
                hop($0 == 0 ? "https://img.test/a.png" : "https://img.test/\($0).png", "302 Found", [("Location", "/\($0 + 1).png")])
            },
            .tooManyRedirects
        ),
        ("zstd", [hop("https://img.test/a.png", "200 OK", [("Content-Encoding", "zstd")])], .contentEncoding),
        ("an announced length over the cap", [hop("https://img.test/a.png", "200 OK", [("Content-Length", "20000000")])], .tooLarge),
        (
            "conflicting lengths", [hop("https://img.test/a.png", "200 OK", [("Content-Length", "100"), ("Content-Length", "101")])],
            .network
        ),
        ("a transfer coding", [hop("https://img.test/a.png", "200 OK", [("Transfer-Encoding", "gzip, chunked")])], .network),
        ("a truncated body", [hop("https://img.test/a.png", "200 OK", code: 18)], .network),
        ("a timeout", [hop("https://img.test/a.png", "200 OK", code: 28)], .timeout),
    ]

    @Test(arguments: cases)
    func decidesFromRecordedHops(name: String, hops: [RecordedHop], reason: Reason?) {
        let run = Self.run(hops)
        #expect(run.report.failure?.reason == reason, "\(name): \(String(describing: run.report.failure))")
    }

    @Test func followsARedirectAcrossEntriesOutOfOrder() {
        let run = Self.run([
            Self.hop("https://img.test/b.png", "200 OK"),
            Self.hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")], body: .absent(why: "not kept")),
        ])
        #expect(run.report.hops.map(\.url) == ["https://img.test/a.png", "https://img.test/b.png"])
        #expect(run.report.bytesWritten == 100 && run.delivered == 100)
        #expect(run.gaps.isEmpty)
    }

    @Test func stopsABodyLongerThanTheCapAtTheCap() {
        let configuration = DownloadConfiguration(limits: DownloadLimits(budget: .seconds(20), maximumBytes: 150_000))
        let run = Self.run(
            [Self.hop("https://img.test/a.png", "200 OK", body: .bytes(Array(repeating: 1, count: 200_000)))], configuration: configuration)
        #expect(run.report.failure?.reason == .tooLarge)
        #expect(run.report.stoppedAtCap)
        // Delivered in 64 KiB pieces: two fit under the cap, the third passes it.
        #expect(run.delivered == 131_072)
        #expect(run.report.bytesReceivedAtCap == 196_608)
    }

    @Test func skipsAnInterimHeadInARawHead() {
        var hop = Self.hop("https://img.test/a.png", "200 OK")
        hop.rawHead = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n".utf8)
        let run = Self.run([hop])
        #expect(run.report.failure == nil)
        #expect(run.report.trace(image: nil).hops.first?.contentType == "image/png")
    }

    @Test func namesWhatTheRecordingLacks() {
        let missingHop = Self.run([Self.hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")])])
        #expect(missingHop.gaps == [.hop(url: "https://img.test/b.png")])
        let missingBody = Self.run([Self.hop("https://img.test/a.png", "200 OK", body: .absent(why: "Firefox drops bodies"))])
        #expect(missingBody.gaps == [.body(url: "https://img.test/a.png", why: "Firefox drops bodies")])
    }

    @Test(arguments: [
        ("TLSv1.1", "ECDHE-RSA-AES128-SHA", TransportSecurity(), Reason.tls),
        ("TLSv1.1", "ECDHE-RSA-AES128-SHA", TransportSecurity(minimumTLS: .v1_1), nil),
        ("TLSv1.2", "AES128-GCM-SHA256", TransportSecurity(), .tls),
        ("TLSv1.2", "AES128-GCM-SHA256", TransportSecurity(requiresForwardSecrecy: false), nil),
        ("TLSv1.2", "DHE-RSA-AES128-GCM-SHA256", TransportSecurity(requiresForwardSecrecy: false), .tls),
        ("TLSv1.3", "TLS_AES_256_GCM_SHA384", TransportSecurity(minimumTLS: .v1_3), nil),
    ])
    func judgesARecordedHandshakeAgain(version: String, cipher: String, security: TransportSecurity, reason: Reason?) {
        var hop = Self.hop("https://img.test/a.png", "200 OK")
        hop.connection = "c1"
        let run = Self.run(
            [hop], connections: [RecordedConnection(id: "c1", tls: DownloadTrace.TLS(version: version, cipher: cipher))],
            configuration: DownloadConfiguration(transportSecurity: security))
        #expect(run.report.failure?.reason == reason, "\(String(describing: run.report.failure))")
        if reason != nil { #expect(run.report.failure?.detail.contains(version == "TLSv1.1" ? "TLS version" : "cipher suite") == true) }
    }
}
