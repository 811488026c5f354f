import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The TLS session cache a pool's downloaders share (``CurlShare``), counted by the real local HTTPS
/// server: how many handshakes it completed, and how many of them resumed an earlier session.
@Suite struct CurlShareTests {
    /// Handshakes and resumed handshakes the server has completed so far.
    static func handshakes(_ server: TestServer) async throws -> (all: Int, resumed: Int) {
        try await onOwnThread {
            let stats = try server.stats()
            return (stats["tls_handshakes"] as? Int ?? -1, stats["tls_resumed"] as? Int ?? -1)
        }
    }

    /// Two downloads through `pool` at once: the second is asked for while the first downloader is
    /// still taken, so the pool makes a second downloader, with a connection of its own. Nil for a
    /// download the pool could not start.
    static func twoAtOnce(_ first: String, _ second: String, pool: DownloaderPool) async throws -> [TransferReport?] {
        let urls = (try ImageURL(validating: first), try ImageURL(validating: second))
        return try await onOwnThread {
            try pool.withDownloader { downloader in
                let one = downloader.download(urls.0, cancellation: DownloadCancellation()) { _ in true }
                let two = try? pool.withDownloader { other in
                    other.download(urls.1, cancellation: DownloadCancellation()) { _ in true }
                }
                return [one, two]
            }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPoolsSecondDownloaderResumesTheFirstOnesSession() async throws {
        // A server of this test's own, so that no other test's handshakes are counted.
        let server = try await onOwnThread { try TestServer() }
        let configuration = CurlDownloaderTests.configuration(server)
        let before = try await Self.handshakes(server)

        let url = server.url("/img/png")
        let reports = try await Self.twoAtOnce(url, url, pool: DownloaderPool(configuration: configuration))
        for report in reports {
            let report = try #require(report)
            #expect(report.failure == nil, "\(String(describing: report.failure))")
            #expect(report.hops.map(\.newConnection) == [true])
            // The resumed connection still reports its protocol and cipher suite.
            #expect(report.hops.first?.facts.tls?.version == "TLSv1.3")
        }
        let after = try await Self.handshakes(server)
        // Two connections, one full handshake: the second downloader resumed the first one's session.
        #expect(after.all - before.all == 2)
        #expect(after.resumed - before.resumed == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherPoolNeverResumesASession() async throws {
        let server = try await onOwnThread { try TestServer() }
        let configuration = CurlDownloaderTests.configuration(server)
        let url = server.url("/img/png")
        _ = try await Self.twoAtOnce(url, url, pool: DownloaderPool(configuration: configuration))
        let before = try await Self.handshakes(server)

        // The same settings, but another pool: its own session cache, so a full handshake (and a pool
        // with other trust settings never sees this pool's sessions).
        let download = try await CurlDownloaderTests.download(server.url("/img/png"), pool: DownloaderPool(configuration: configuration))
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        let after = try await Self.handshakes(server)
        #expect(after.all - before.all == 1)
        #expect(after.resumed - before.resumed == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aResumedSessionIsOnlyForItsOwnServer() async throws {
        // The first downloader's session is for the main listener; the second downloader connects to an
        // ATS listener whose chain breaks a rule (its own port and certificate): no session to resume
        // there, so the full handshake runs the rules and refuses it.
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: CurlDownloaderTests.configuration(server))
        let reports = try await Self.twoAtOnce(server.url("/img/png"), server.url("/img/png", onATSListener: "ats_cn_only"), pool: pool)
        #expect(reports[0]?.failure == nil, "\(String(describing: reports[0]?.failure))")
        #expect(reports[1]?.failure?.reason == .tls, "\(String(describing: reports[1]?.failure))")
    }
}
