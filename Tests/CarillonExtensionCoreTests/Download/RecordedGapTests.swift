import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What a recording lacks, as the core concludes it: a gap the decisions needed ends the download
/// `undetermined`, its detail the recording's own words; a gap no decision needed (a redirect's body,
/// a head that already refused) changes nothing.
@Suite struct RecordedGapTests {
    typealias Hop = RecordedHop

    static func hop(_ url: String, _ status: String, _ fields: [(String, String)] = [], body: Hop.Body, end: Hop.End = Hop.End())
        -> Hop
    {
        var made = TransferMachineTests.hop(url, status, fields, body: body)
        made.end = end
        return made
    }

    static let firefox = "entry 0 (image/png, 100 bytes) has no body: 'Response bodies are not included.'"
    static let statusZero = Hop(
        url: "https://img.test/a.png", httpVersion: nil, statusLine: "", body: .absent(why: "no response"),
        end: Hop.End(curlCode: 7, message: "net::ERR_CERT_DATE_INVALID", unanswered: "net::ERR_CERT_DATE_INVALID"))

    /// The hops, what the recording is called, and the outcome: a reason and the detail's exact words.
    static let cases: [(String, [Hop], String, Reason?, String?)] = [
        ("a body left out", [hop("https://img.test/a.png", "200 OK", body: .absent(why: firefox))], "the HAR", .undetermined, firefox),
        (
            "a redirect target not captured",
            [hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")], body: .absent(why: "not kept"))], "the HAR",
            .undetermined, "redirect target not in the HAR: 'https://img.test/b.png'"
        ),
        (
            "a redirect target not captured, in a recording with no name",
            [hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")], body: .bytes([]))], "the recording",
            .undetermined, "redirect target not in the recording: 'https://img.test/b.png'"
        ),
        (
            "status 0 and the exporter's words", [statusZero], "the HAR", .undetermined,
            "no response for 'https://img.test/a.png' in the HAR: net::ERR_CERT_DATE_INVALID"
        ),
        (
            "a body file that is not there",
            [hop("https://img.test/a.png", "200 OK", body: .file(path: "/nonexistent/carillon-gap/body.bin"))], "the HAR",
            .undetermined, nil
        ),
        (
            "a body the live run stopped, and nothing stops now",
            [hop("https://img.test/a.png", "200 OK", body: .bytes([0x89, 0x50]), end: Hop.End(curlCode: 23))], "the HAR",
            .undetermined, "the body of 'https://img.test/a.png' ends where the live run stopped it: the rest was never received"
        ),
        (
            "a body left out, and the recording cancelled",
            [hop("https://img.test/a.png", "200 OK", body: .absent(why: firefox), end: Hop.End(curlCode: 42, cancelled: true))],
            "the HAR", .undetermined, firefox
        ),
        // No decision needed what is missing: the head decides, as live.
        (
            "a 404 without its body", [hop("https://img.test/a.png", "404 Not Found", body: .absent(why: firefox))], "the HAR", .httpStatus,
            nil
        ),
        (
            "an announced length over the cap without its body",
            [hop("https://img.test/a.png", "200 OK", [("Content-Length", "20000000")], body: .absent(why: firefox))], "the HAR", .tooLarge,
            nil
        ),
        (
            "zstd without its body", [hop("https://img.test/a.png", "200 OK", [("Content-Encoding", "zstd")], body: .absent(why: firefox))],
            "the HAR", .contentEncoding, nil
        ),
        (
            "a redirect's body left out",
            [
                hop("https://img.test/a.png", "302 Found", [("Location", "/b.png")], body: .absent(why: firefox)),
                TransferMachineTests.hop("https://img.test/b.png", "200 OK"),
            ], "the HAR", nil, nil
        ),
    ]

    @Test(arguments: cases)
    func aGapEndsTheDownloadUndetermined(name: String, hops: [Hop], called: String, reason: Reason?, detail: String?) {
        var source = RecordedTransferSource(
            transfer: RecordedTransfer(hops: hops, called: called), configuration: DownloadConfiguration(), at: 1_800_000_000)
        let report = TransferFeed.run(
            try! ImageURL(validating: "https://img.test/a.png"), configuration: DownloadConfiguration(), source: &source,
            sink: { _ in true })
        #expect(report.failure?.reason == reason, "\(name): \(String(describing: report.failure))")
        if let detail { #expect(report.failure?.detail == detail, "\(name)") }
        #expect(report.undetermined == source.gaps.first?.detail(calling: called), "\(name)")
        #expect((reason == .undetermined) == !source.gaps.isEmpty, "\(name): \(source.gaps)")
        // The trace still shows every request made, as recorded.
        #expect(report.hops.first?.url == "https://img.test/a.png", "\(name)")
    }

    /// A status-0 entry whose recorded handshake is refused now: the refusal is the verdict, not the
    /// missing response; accepted now, the missing response is.
    @Test(arguments: [(TransportSecurity(), Reason.tls), (TransportSecurity(minimumTLS: .v1_1), .undetermined)])
    func aRefusedHandshakeDecidesBeforeAMissingResponse(security: TransportSecurity, reason: Reason) {
        var hop = Self.statusZero
        hop.connection = "c1"
        let configuration = DownloadConfiguration(transportSecurity: security)
        var source = RecordedTransferSource(
            transfer: RecordedTransfer(
                hops: [hop],
                connections: [RecordedConnection(id: "c1", tls: DownloadTrace.TLS(version: "TLSv1.1", cipher: "ECDHE-RSA-AES128-SHA"))],
                called: "the HAR"),
            configuration: configuration, at: 1_800_000_000)
        let report = TransferFeed.run(
            try! ImageURL(validating: "https://img.test/a.png"), configuration: configuration, source: &source, sink: { _ in true })
        #expect(report.failure?.reason == reason, "\(String(describing: report.failure))")
    }

    @Test(arguments: [
        (RecordedTransferSource.Gap.hop(url: "https://a.test/b"), "redirect target not in the HAR: 'https://a.test/b'"),
        (.body(url: "https://a.test/b", why: "entry 3 has no body: cut"), "entry 3 has no body: cut"),
        (.response(url: "https://a.test/b", why: "net::ERR_FAILED"), "no response for 'https://a.test/b' in the HAR: net::ERR_FAILED"),
    ])
    func aGapsDetailNamesWhatIsMissing(gap: RecordedTransferSource.Gap, detail: String) {
        #expect(gap.detail(calling: "the HAR") == detail)
    }

    /// Out of the extension's own runtime: the result already says `undetermined`, with the trace of
    /// the request that was made, and no attachment.
    @Test func theRuntimesResultSaysUndetermined() throws {
        let directory = TemporaryDirectory("gap")
        defer { directory.remove() }
        let configuration = ExtensionConfiguration(attachmentsDirectory: directory.path)
        let transport = RecordedTransport(
            transfer: RecordedTransfer(
                hops: [Self.hop("https://img.test/a.png", "200 OK", body: .absent(why: Self.firefox))], called: "the HAR"),
            configuration: configuration.download, at: 1_800_000_000)
        let runtime = ExtensionRuntime(configuration: configuration, replaying: transport)
        defer { runtime.finish() }
        let result = runtime.process(
            NotificationRequest(
                identifier: "gap", payload: try Payload(bytes: Array(Payloads.routed(image: "https://img.test/a.png").utf8))),
            timeWillExpireAfter: .seconds(30))
        #expect(result.outcome == Outcome(.undetermined, Self.firefox))
        #expect(result.trace?.hops.map(\.url) == ["https://img.test/a.png"])
        #expect(result.trace?.hops.first?.status == 200)
        #expect(result.content.attachments.isEmpty)
    }
}
