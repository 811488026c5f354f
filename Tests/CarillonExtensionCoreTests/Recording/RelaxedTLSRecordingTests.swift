import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A recording of a handshake refused for its protocol or suite asks the server again with ATS's
/// loosest exceptions, and a replay under looser settings reaches the verdict a live download under
/// them reaches; under the recorded settings, the recorded refusal.
@Suite(.timeLimit(.minutes(1))) struct RelaxedTLSRecordingTests {
    static func configuration(_ security: TransportSecurity = TransportSecurity()) -> DownloadConfiguration {
        DownloadConfiguration(
            limits: DownloadLimits(budget: .seconds(5), maximumBytes: 10_485_760), extraCAFile: TestServer.shared.caFile,
            transportSecurity: security)
    }

    /// Records `url` under ATS without exceptions, then asks again relaxed.
    static func record(_ url: String, bodies: String) async throws -> (download: RecordedDownload, relaxed: RecordedDownload?) {
        try await onOwnThread {
            let transport = RecordingTransport(configuration: configuration(), bodiesDirectory: bodies)
            _ = try transport.download(try ImageURL(validating: url), cancellation: DownloadCancellation()) { _ in true }
            let taken = try #require(transport.take(url))
            return transport.askingRelaxed(taken)
        }
    }

    static func replay(_ transfer: RecordedTransfer, _ url: String, under security: TransportSecurity) throws -> (
        TransferReport, [UInt8], [RecordedTransferSource.Gap]
    ) {
        var source = RecordedTransferSource(
            transfer: transfer, configuration: configuration(security), at: Timestamp.now().millisecondsSinceEpoch / 1000)
        var body: [UInt8] = []
        let report = TransferFeed.run(
            try ImageURL(validating: url), configuration: configuration(security), source: &source,
            sink: { piece in
                body += piece
                return true
            })
        return (report, body, source.gaps)
    }

    @Test(
        arguments: [
            ("ats_tls11", TransportSecurity(minimumTLS: .v1_1), "TLSv1.1", "X25519"),
            ("ats_rsa_kex", TransportSecurity(requiresForwardSecrecy: false), "TLSv1.2", nil),
        ] as [(String, TransportSecurity, String, String?)])
    func aRefusedHandshakeIsAskedAgainAndReplaysAsLiveUnderLooserSettings(
        listener: String, looser: TransportSecurity, version: String, group: String?
    ) async throws {
        let bodies = TemporaryDirectory("relaxed-tls")
        defer { bodies.remove() }
        let url = TestServer.shared.url("/img/png", onATSListener: listener)
        let (live, asked) = try await Self.record(url, bodies: bodies.path)
        let relaxed = try #require(asked)
        // The live download is the refusal, alone; the relaxed one is its own, marked, on r1.
        #expect(live.transfer.hops.count == 1)
        #expect(live.transfer.connections.map(\.offered) == ["r1"])
        #expect(relaxed.transfer.hops.allSatisfy { $0.relaxedTLS })
        #expect(relaxed.transfer.connections.first?.id == "r1")
        #expect(relaxed.transfer.connections.first?.tls?.version == version)
        // The key exchange's group, from the server's ephemeral key (none with RSA key exchange).
        #expect(relaxed.transfer.connections.first?.tls?.group == group)
        #expect(relaxed.bodyBytes > 0)
        let finalBody = try #require(relaxed.stagedBody?.temporaryPath)
        var both = RecordedTransfer(hops: live.transfer.hops + relaxed.transfer.hops, connections: live.transfer.connections)
        both.connections += relaxed.transfer.connections
        both.hops[both.hops.count - 1].body = .file(path: finalBody)
        both.recordedSecurity = TransportSecurity()

        // Under the recorded settings: the recorded refusal, its words unchanged.
        let (strict, _, strictGaps) = try Self.replay(both, url, under: TransportSecurity())
        #expect(strict.failure?.reason == .tls)
        #expect(strict.curlMessage == live.transfer.hops[0].end.message)
        #expect(strictGaps == [])
        // Under the looser ones: what a live download under them gets.
        let (loose, body, gaps) = try Self.replay(both, url, under: looser)
        let reference = try await CurlDownloaderTests.download(url, pool: DownloaderPool(configuration: Self.configuration(looser)))
        #expect(reference.report.failure == nil)
        #expect(loose.failure == nil, "\(String(describing: loose.failure))")
        #expect(gaps == [])
        #expect(body == Array(reference.body))
        #expect(loose.hops.map(\.facts.tls) == reference.report.hops.map(\.facts.tls))
        // Without the relaxed answer, the looser settings cannot be judged.
        var old = live.transfer
        old.connections[0].offered = nil
        old.recordedSecurity = TransportSecurity()
        let (_, _, oldGaps) = try Self.replay(old, url, under: looser)
        #expect(oldGaps.count == 1)
        relaxed.stagedBody?.discard()
        live.stagedBody?.discard()
    }

    /// A chain refused by an ATS rule is not asked again: its refusal is judged from its chain.
    @Test func aRefusedChainIsNotAskedAgain() async throws {
        let bodies = TemporaryDirectory("relaxed-tls-chain")
        defer { bodies.remove() }
        let (live, relaxed) = try await Self.record(TestServer.shared.url("/img/png", onATSListener: "ats_no_eku"), bodies: bodies.path)
        #expect(relaxed == nil)
        #expect(live.transfer.connections.map(\.offered) == [nil])
        live.stagedBody?.discard()
    }
}
