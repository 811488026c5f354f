import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A chain recorded from a real TLS listener, judged again offline by ``CertificateJudgement``: the
/// same verdict as the live handshake gave, and a different one at another instant or without the
/// extra CA.
@Suite struct CertificateJudgementTests {
    /// A recording pool's download of `/img/png` on `listener` (nil: the main one): the live report.
    static func recorded(_ listener: String?) async throws -> TransferReport {
        let server = TestServer.shared
        let configuration = DownloadConfiguration(
            limits: DownloadLimits(budget: .seconds(15), maximumBytes: 10_485_760), extraCAFile: server.caFile)
        let url = listener.map { server.url("/img/png", onATSListener: $0) } ?? server.url("/img/png")
        return try await CurlDownloaderTests.download(url, pool: DownloaderPool(configuration: configuration, recording: true)).report
    }

    /// The instant, read at each use: a `static let` read once by one case could come before the test
    /// server made the RSA leaf another case records (lazily, at its first connection), which is then
    /// "not yet valid" at it.
    static var now: Int64 { Int64(Timestamp.now().millisecondsSinceEpoch / 1000) }

    @Test(.timeLimit(.minutes(1)), arguments: [nil, "ats_cn_only", "ats_no_eku", "ats_ten_years", "ats_intermediate", "ats_rsa2048"])
    func judgesARecordedChainAsTheHandshakeDid(listener: String?) async throws {
        let report = try await Self.recorded(listener)
        let hop = try #require(report.hops.first)
        #expect(!hop.facts.chain.isEmpty, "no chain kept")
        if listener == "ats_intermediate" { #expect(hop.facts.chain.count == 2) }
        let judged = CertificateJudgement(
            chain: hop.facts.chain, host: "127.0.0.1", at: Self.now, extraCAFile: TestServer.shared.caFile)
        if let rule = report.tlsRule {
            #expect(judged.verdict == .brokenRule(rule))
        } else {
            #expect(report.failure == nil)
            #expect(judged.verdict == .accepted)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherInstantOrAnotherTrustChangesTheVerdict() async throws {
        let chain = try #require(try await Self.recorded(nil).hops.first?.facts.chain)
        let ca = TestServer.shared.caFile
        // The main leaf is valid for 7 days.
        #expect(
            CertificateJudgement(chain: chain, host: "127.0.0.1", at: Self.now + 30 * 86_400, extraCAFile: ca).verdict
                == .untrusted("certificate has expired"))
        #expect(
            CertificateJudgement(chain: chain, host: "127.0.0.1", at: Self.now - 30 * 86_400, extraCAFile: ca).verdict
                == .untrusted("certificate is not yet valid"))
        #expect(
            CertificateJudgement(chain: chain, host: "127.0.0.1", at: Self.now).verdict
                == .untrusted("unable to get local issuer certificate"))
        // The CA's certificates as a recording keeps them (DER) are the same trust as the CA file; bytes
        // that are not a certificate add none.
        let recorded = PEMChain.certificates(in: String(decoding: try FileSystem.readFile(ca), as: UTF8.self))
        #expect(!recorded.isEmpty)
        #expect(CertificateJudgement(chain: chain, host: "127.0.0.1", at: Self.now, extraTrust: recorded).verdict == .accepted)
        #expect(
            CertificateJudgement(chain: chain, host: "127.0.0.1", at: Self.now, extraTrust: [[1, 2, 3]]).verdict
                == .untrusted("unable to get local issuer certificate"))
        #expect(
            CertificateJudgement(chain: [[0x30, 0x03, 0x02, 0x01, 0x01]], host: "127.0.0.1", at: Self.now).verdict
                == .unreadable(index: 0))
        #expect(CertificateJudgement(chain: [], host: "127.0.0.1", at: Self.now).verdict == .unreadable(index: -1))
    }
}
