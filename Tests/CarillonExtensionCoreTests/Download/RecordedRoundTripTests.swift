import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A live download through a recording pool, then the same download answered by its
/// ``RecordedTransfer``: the seam runs the same decisions, so the verdict, the hops and the body agree.
@Suite struct RecordedRoundTripTests {
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            "/img/png", "/redirect/relative", "/redirect/308", "/bad/html", "/enc/gzip", "/enc/zstd", "/bad/content-length-conflict",
            "/size/cap-plus-1", "/bad/status-404-large", "/redirect/to-http", "/bad/empty", "/bad/truncated-body",
        ])
    func aRecordingReplaysToTheLiveVerdict(route: String) async throws {
        let server = TestServer.shared
        let configuration = DownloadConfiguration(
            limits: DownloadLimits(budget: .seconds(5), maximumBytes: 10_485_760), extraCAFile: server.caFile)
        let live = try await CurlDownloaderTests.download(
            server.url(route), pool: DownloaderPool(configuration: configuration, recording: true))
        let transfer = RecordedTransfer(report: live.report, finalBody: .bytes(Array(live.body)))
        var source = RecordedTransferSource(
            transfer: transfer, configuration: configuration, at: Timestamp.now().millisecondsSinceEpoch / 1000)
        var replayed: [UInt8] = []
        let report = TransferFeed.run(
            try ImageURL(validating: server.url(route)), configuration: configuration, source: &source,
            sink: { piece in
                replayed += piece
                return true
            })
        #expect(source.gaps == [])
        #expect(source.unchecked == [])
        #expect(report.failure == live.report.failure)
        #expect(report.hops.map(\.url) == live.report.hops.map(\.url))
        #expect(report.hops.map(\.status) == live.report.hops.map(\.status))
        #expect(report.trace(image: nil).phase == live.report.trace(image: nil).phase)
        #expect(replayed == Array(live.body))
    }
}
