import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The downloader over HTTP/2, negotiated by ALPN as URLSession does, against a real nginx on loopback
/// (``NginxServer``): the verdicts of SPEC §2 hold over it as over HTTP/1.1.
@Suite(.timeLimit(.minutes(1)))
struct CurlDownloaderHTTP2Tests {
    static func download(_ path: String, budget: Int = 5_000, cap: Int = 10_485_760, port: Int? = nil) async throws
        -> CurlDownloaderTests.Download
    {
        let nginx = try await onOwnThread { try NginxServer.shared() }
        let configuration = DownloadConfiguration(
            limits: DownloadLimits(budget: .milliseconds(budget), maximumBytes: cap), extraCAFile: nginx.caFile)
        let url = port.map { "https://127.0.0.1:\($0)\(path)" } ?? nginx.url(path)
        return try await CurlDownloaderTests.download(url, pool: DownloaderPool(configuration: configuration))
    }

    @Test(arguments: [
        ("/sample.jpg", "sample.jpg"), ("/sample.png", "sample.png"), ("/static.gif", "static.gif"),
        ("/animated.gif", "animated.gif"),
    ])
    func attachesEachFormatOverHTTP2(path: String, fixture: String) async throws {
        let download = try await Self.download(path)
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body == (try Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Images/" + fixture)))))
        let trace = download.report.trace(image: nil)
        #expect(trace.hops.map(\.httpVersion) == ["2"])
        #expect(trace.hops.first?.tls?.version == "TLSv1.3")
    }

    @Test func aRedirectChainOverHTTP2() async throws {
        let download = try await Self.download("/r/5")
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.report.hops.map(\.status) == [302, 302, 302, 302, 302, 200])
        #expect(download.report.hops.map(\.newConnection) == [true, false, false, false, false, false])
        #expect(download.report.trace(image: nil).hops.allSatisfy { $0.httpVersion == "2" })
        let tooMany = try await Self.download("/r/6")
        #expect(tooMany.report.failure?.reason == .tooManyRedirects)
    }

    @Test func aMissingFileIsHTTPStatus() async throws {
        let download = try await Self.download("/missing.png")
        #expect(download.report.failure == Outcome(.httpStatus, "final response status 404, expected 200"))
        #expect(download.body.isEmpty)
    }

    /// nginx's own `gzip on`: the body is decoded, its length unknown until the end, and the trace says so.
    @Test func nginxGzipIsDecoded() async throws {
        let download = try await Self.download("/gz/sample.png")
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body == (try Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Images/sample.png")))))
        let hop = try #require(download.report.trace(image: nil).hops.last)
        #expect(hop.contentEncoding == "gzip")
        #expect(hop.httpVersion == "2")
        #expect(hop.decodedBytes == download.body.count)
        #expect(hop.wireBytes > 0 && hop.wireBytes != hop.decodedBytes)
    }

    /// The cap: an announced length over it is refused before the body; a gzip body (no length) is cut
    /// the moment its decoded bytes pass it.
    @Test(arguments: [("/sample.png", true), ("/gz/sample.png", false)])
    func theCapOverHTTP2(path: String, announced: Bool) async throws {
        let download = try await Self.download(path, cap: 300)
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .tooLarge)
        if announced {
            #expect(failure.detail == "announced Content-Length 461 is over the 300 bytes cap; refused before the body")
            #expect(download.body.isEmpty)
        } else {
            #expect(failure.detail.hasPrefix("decoded body passed the 300 bytes cap while decoding 'gzip': "))
            #expect(download.body.count <= 300)
        }
    }

    @Test func theBudgetOverHTTP2() async throws {
        let download = try await Self.download("/slow/sample.png", budget: 500)
        #expect(download.report.failure?.reason == .timeout, "\(String(describing: download.report.failure))")
        #expect(download.elapsed >= .milliseconds(480) && download.elapsed < .milliseconds(2_000), "took \(download.elapsed)")
    }

    /// App Transport Security over HTTP/2: a TLS 1.2 server offering only RSA key exchange is still tls.
    @Test func rsaKeyExchangeOnlyIsTLS() async throws {
        let nginx = try await onOwnThread { try NginxServer.shared() }
        let download = try await Self.download("/sample.png", port: nginx.rsaKeyExchangePort)
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .tls)
        #expect(failure.detail.hasPrefix("cipher suite: under TLS 1.2 App Transport Security allows only ECDHE with AES"), "\(failure)")
    }
}
