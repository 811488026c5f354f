import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Redirects followed by the downloader itself, and the exact reason of every class of misbehaving
/// response, against the real local HTTPS server.
@Suite struct CurlDownloaderRedirectTests {
    typealias Download = CurlDownloaderTests.Download

    static func download(_ url: String, budget: Int = 5_000, server: TestServer = .shared) async throws -> Download {
        let pool = DownloaderPool(configuration: CurlDownloaderTests.configuration(server, budget: budget))
        return try await CurlDownloaderTests.download(url, pool: pool)
    }

    /// Connections accepted and requests served so far, read off the cooperative pool (it runs `curl`).
    static func counts(_ server: TestServer) async throws -> (connections: Int, requests: Int) {
        try await onOwnThread {
            let stats = try server.stats()
            return (stats["connections"] as? Int ?? -1, stats["total_requests"] as? Int ?? -1)
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        /// The expected outcome; `{base}` stands for the server's base URL.
        var reason: Reason
        var detail: String
        /// Body bytes the sink sees before the refusal (broken chunking shows only after a first chunk).
        var bodyBytes = 0
        var testDescription: String { path }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            // Framing: network, saying what was malformed; never insecure-url.
            Case(
                path: "/bad/http09", reason: .network,
                detail:
                    "malformed response: no valid HTTP/1.x status line (an HTTP/0.9 reply or a malformed status line) (libcurl error 1: Unsupported protocol (Received HTTP/0.9 when not allowed))"
            ),
            Case(
                path: "/bad/status-line", reason: .network,
                detail:
                    "malformed response: no valid HTTP/1.x status line (an HTTP/0.9 reply or a malformed status line) (libcurl error 1: Unsupported protocol (Unsupported response code in HTTP response))"
            ),
            Case(
                path: "/bad/content-length-conflict", reason: .network,
                detail:
                    "malformed response: conflicting Content-Length values '11352' and '11252'"),
            Case(
                path: "/bad/chunking", reason: .network,
                detail:
                    "malformed response: broken chunked framing (libcurl error 56: Failure when receiving data from the peer (Illegal or missing hexadecimal sequence in chunked-encoding))",
                bodyBytes: 100),
            // Statuses, the codings refused on the head, the announced cap and the redirect rules need no
            // socket: TransferFeedTests decides them from recorded hops, with these same details.
            Case(
                path: "/enc/te-gzip-chunked", reason: .network,
                detail:
                    "malformed response: Transfer-Encoding 'gzip, chunked'; only chunked is a transfer coding HTTP/1.1 clients take"),
            // One redirect refused live: libcurl never follows it itself.
            Case(
                path: "/redirect/to-http", reason: .insecureURL,
                detail:
                    "redirect 1 (302 from '{base}/redirect/to-http'): Location 'http://{host}/img/png' uses scheme 'http'; only https is allowed"
            ),
        ])
    func refusesWithTheExactReason(_ test: Case) async throws {
        let server = TestServer.shared
        let host = "127.0.0.1:\(server.port)"
        let path = test.path.replacingOccurrences(of: "{host}", with: host)
        let download = try await Self.download(server.url(path))
        let detail = test.detail.replacingOccurrences(of: "{base}", with: server.baseURL).replacingOccurrences(of: "{host}", with: host)
        #expect(download.report.failure == Outcome(test.reason, detail))
        #expect(download.body.count == test.bodyBytes, "no byte of a refused response reaches the sink")
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            // One redirect followed live; the other statuses and repeated lengths are TransferFeedTests' rows.
            ("/redirect/relative", 11_352),
            // Decoded as URLSession decodes them: alone, stacked, in any case, chunked, in two headers.
            ("/enc/gzip", 11_352), ("/enc/deflate", 11_352), ("/enc/br", 11_352), ("/enc/gzip-then-br", 11_352),
            ("/enc/gzip-upper", 11_352), ("/enc/gzip-chunked", 11_352), ("/enc/identity-then-gzip", 11_352),
            // A redirect is followed on its head: an 11 MiB body announced, then a close or a stall.
            ("/redirect/large-announced-closes", 69), ("/redirect/large-announced-stalls?seconds=30", 69),
        ])
    func acceptsWhatIOSAccepts(path: String, bytes: Int) async throws {
        let download = try await Self.download(TestServer.shared.url(path))
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body.count == bytes)
    }

    /// Five redirects pass, on one connection, and every hop is kept for the trace.
    @Test(.timeLimit(.minutes(1)))
    func fiveHopsOnOneConnection() async throws {
        let server = try await onOwnThread { try TestServer() }
        let before = try await Self.counts(server)
        let download = try await Self.download(server.url("/redirect/hops/5"), server: server)
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body.count == 11_352)
        let after = try await Self.counts(server)
        #expect(after.connections - before.connections == 1)
        let hops = download.report.hops
        #expect(hops.map(\.status) == [302, 302, 302, 302, 302, 200])
        #expect(hops.map(\.url) == (0...5).reversed().map { server.url("/redirect/hops/\($0)") })
        #expect(hops.dropLast().map(\.location) == (0...4).reversed().map { "/redirect/hops/\($0)" })
        #expect(hops.map(\.newConnection) == [true, false, false, false, false, false])
        #expect(download.report.redirects == 5)
    }

    /// A 302 whose body never ends, on a kept-open connection: read no further than 64 KiB, then followed.
    @Test(.timeLimit(.minutes(1)))
    func anEndlessRedirectBodyIsCutAndFollowed() async throws {
        let download = try await Self.download(TestServer.shared.url("/redirect/endless-body"), budget: 6_000)
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body.count == 11_352)
        // Milliseconds when idle; the bound is only "far from the budget", for a loaded machine.
        #expect(download.elapsed < .milliseconds(3_000), "took \(download.elapsed)")
        let first = try #require(download.report.hops.first)
        #expect(first.status == 302)
        #expect(first.bodyBytes <= RedirectRule.maximumBodyBytes)
    }

    /// A 302 announcing 11 MiB in front of a 69-byte image: the redirect's length is not the image's.
    @Test(.timeLimit(.minutes(1)))
    func aRedirectsAnnouncedLengthNeverCountsAgainstTheCap() async throws {
        let download = try await Self.download(TestServer.shared.url("/redirect/large-announced"))
        #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
        #expect(download.body.count == 69)
        #expect(download.report.bytesWritten == 69)
        #expect(try #require(download.report.hops.first).bodyBytes <= RedirectRule.maximumBodyBytes)
    }

    /// One deadline over every hop; the detail counts the whole chain. Two slow redirects (0.5 s
    /// each), then a stall: the 2 s budget ends in the third request, at 2 s, not 2 s after it began.
    /// A server of its own, so that other tests' traffic cannot delay its answers.
    @Test(.timeLimit(.minutes(1)))
    func oneDeadlineOverTheChain() async throws {
        let server = try await onOwnThread { try TestServer() }
        let download = try await Self.download(server.url("/redirect/slow/1?delay=0.5"), budget: 2_000, server: server)
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .timeout)
        #expect(
            failure.detail.hasPrefix("the download's 2000 ms time budget ran out on request 3 of the chain, after 2 redirects, "),
            "\(failure.detail)")
        // The third request reused the connection: it stalled waiting for the head, not in a handshake.
        #expect(
            failure.detail.hasSuffix(
                " ms in all, while waiting for the response head from 127.0.0.1, after 0 body bytes (libcurl error 28)"),
            "\(failure.detail)")
        #expect(download.report.hops.map(\.status) == [302, 302, 0])
        #expect(download.elapsed >= .milliseconds(1_980) && download.elapsed < .milliseconds(3_000), "took \(download.elapsed)")
    }

    /// A refused hop is never requested.
    @Test(.timeLimit(.minutes(1)))
    func aRefusedHopNeverConnects() async throws {
        let server = try await onOwnThread { try TestServer() }
        let before = try await Self.counts(server)
        let download = try await Self.download(server.url("/redirect/to-http"), server: server)
        #expect(download.report.failure?.reason == .insecureURL)
        let after = try await Self.counts(server)
        #expect(after.connections - before.connections == 1)
        #expect(after.requests - before.requests == 1)
        #expect(download.report.hops.count == 1)
    }
}
