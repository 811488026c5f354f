import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The libcurl downloader on its own, against the real local HTTPS server: connection reuse, the
/// request it sends, the size cap, the budget and cancellation.
@Suite struct CurlDownloaderTests {
    struct Download {
        var report: TransferReport
        var body: Data
        var elapsed: Duration
        /// When the downloader returned (measured on its own thread, free of any scheduling delay).
        var returned: ContinuousClock.Instant
    }

    static func configuration(_ server: TestServer, budget: Int = 5_000, maximumBytes: Int = 10_485_760) -> DownloadConfiguration {
        DownloadConfiguration(limits: DownloadLimits(budget: .milliseconds(budget), maximumBytes: maximumBytes), extraCAFile: server.caFile)
    }

    /// Downloads `url` through `pool` into a new file and reads the file back, on a thread of its own
    /// (see `onOwnThread`).
    static func download(
        _ url: String, pool: DownloaderPool, cancellation: DownloadCancellation = DownloadCancellation()
    ) async throws -> Download {
        try await onOwnThread { try blockingDownload(url, pool: pool, cancellation: cancellation) }
    }

    /// Downloads into memory: the sink is the test's, as the attacher's is the file and the verifier.
    static func blockingDownload(_ url: String, pool: DownloaderPool, cancellation: DownloadCancellation) throws -> Download {
        var body = Data()
        let start = ContinuousClock.now
        let report = try pool.withDownloader { downloader in
            downloader.download(try! ImageURL(validating: url), cancellation: cancellation) { piece in
                body.append(contentsOf: piece)
                return true
            }
        }
        let returned = ContinuousClock.now
        return Download(report: report, body: body, elapsed: returned - start, returned: returned)
    }

    @Test(.timeLimit(.minutes(1)))
    func consecutiveDownloadsReuseOneConnection() async throws {
        // A server of this test's own, so that no other test's connections are counted.
        let server = try await onOwnThread { try TestServer() }
        let reference = try await onOwnThread { try Curl.bytes(server.url("/img/png"), caFile: server.caFile) }
        let before = try server.stats()
        let pool = DownloaderPool(configuration: Self.configuration(server))
        for _ in 0..<2 {
            let download = try await Self.download(server.url("/img/png"), pool: pool)
            #expect(download.report.failure == nil, "\(String(describing: download.report.failure))")
            #expect(download.body == reference)
        }
        let after = try server.stats()
        #expect((after["connections"] as? Int ?? -1) - (before["connections"] as? Int ?? 0) == 1)
        let requests = { (stats: [String: Any]) in (stats["requests"] as? [String: Int])?["/img/png"] ?? 0 }
        #expect(requests(after) - requests(before) == 2)
    }

    /// One downloader serves one failure after another and still downloads: a reused handle once
    /// refused an option after a redirect to http had aborted its transfer.
    @Test(.timeLimit(.minutes(1)))
    func aDownloaderStaysUsableAfterEveryKindOfFailure() async throws {
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: Self.configuration(server, budget: 2_000))
        let failures: [(String, Reason?)] = [
            ("/redirect/to-http", .insecureURL), ("/redirect/to-file", .insecureURL), ("/status/404", .httpStatus),
            ("/bad/http09", .network), ("/redirect/endless-body", nil),
            ("/enc/zstd", .contentEncoding), ("/enc/bad-gzip", .network), ("/enc/gzip-bomb", .tooLarge),
            ("/redirect/large-announced-closes", nil), ("/size/cap-plus-1", .tooLarge), ("/size/cap-plus-1-chunked", .tooLarge),
            ("/redirect/hops/6", .tooManyRedirects), ("/bad/truncated-body", .network), ("/bad/empty", .emptyBody),
            ("/stall/headers?seconds=30", .timeout),
        ]
        for (path, reason) in failures {
            let failed = try await Self.download(server.url(path), pool: pool)
            #expect(failed.report.failure?.reason == reason, "\(path): \(String(describing: failed.report.failure))")
            let next = try await Self.download(server.url("/img/png"), pool: pool)
            #expect(next.report.failure == nil, "after \(path): \(String(describing: next.report.failure))")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func consecutiveNotificationsReuseOneConnection() async throws {
        let server = try await onOwnThread { try TestServer() }
        let directory = TemporaryDirectory("reuse")
        defer { directory.remove() }
        let configuration = ExtensionConfiguration(attachmentsDirectory: directory.path, download: Self.configuration(server))
        let pool = DownloaderPool(configuration: configuration.download)
        let before = try server.stats()
        for path in ["/img/png", "/img/jpeg"] {
            let request = NotificationRequest(
                identifier: path, payload: try Payload(bytes: Array(Payloads.routed(image: server.url(path)).utf8)))
            let recorder = CallRecorder<ServiceResult>()
            let service = NotificationService.didReceive(request, configuration: configuration, pool: pool, completion: recorder.record)
            let result = try #require(await recorder.first(within: .seconds(10)))
            await service.finished()
            #expect(result.outcome.reason == .attached, "\(result.outcome)")
        }
        let after = try server.stats()
        #expect((after["connections"] as? Int ?? -1) - (before["connections"] as? Int ?? 0) == 1)
    }

    /// The request is the one the extension's URLSession sends (round 3: it used to ask for no
    /// compression, with the tool's own User-Agent; SPEC §2 now asks for the device's request).
    @Test(.timeLimit(.minutes(1)))
    func requestIsTheOneURLSessionSends() async throws {
        let server = TestServer.shared
        let download = try await Self.download(server.url("/echo/headers"), pool: DownloaderPool(configuration: Self.configuration(server)))
        #expect(download.report.curlCode == 0)
        #expect(download.report.status == 200)
        let echo = try #require(try JSONSerialization.jsonObject(with: download.body) as? [String: Any])
        let raw = try #require(echo["raw"] as? [[String]])
        #expect(
            raw == [
                ["Host", "127.0.0.1:\(server.port)"],
                ["User-Agent", "CarillonNotificationService/\(CarillonVersion.current) CFNetwork/3826.600.41 Darwin/24.6.0"],
                ["Accept", "*/*"], ["Accept-Language", "en-US,en;q=0.9"], ["Accept-Encoding", "gzip, deflate, br"],
            ], "\(raw)")
        #expect(echo["method"] as? String == "GET")
    }

    /// `--header` replaces a default of the same name in any case, never duplicates it, and adds others;
    /// the trace shows what was sent, an Authorization or Cookie value never.
    @Test(.timeLimit(.minutes(1)))
    func headersAreReplacedNotDuplicated() async throws {
        let server = TestServer.shared
        var configuration = Self.configuration(server)
        configuration.requestHeaders = RequestHeaders(
            userAgent: "Probe/1", acceptLanguage: "fr-FR,fr;q=0.9",
            extra: [
                .init(name: "accept", value: "image/*"), .init(name: "Authorization", value: "Bearer s3cret"),
                .init(name: "Cookie", value: "id=42"), .init(name: "X-Debug", value: "1"),
            ])
        let download = try await Self.download(server.url("/echo/headers"), pool: DownloaderPool(configuration: configuration))
        let echo = try #require(try JSONSerialization.jsonObject(with: download.body) as? [String: Any])
        let raw = try #require(echo["raw"] as? [[String]])
        #expect(
            raw.dropFirst() == [
                ["User-Agent", "Probe/1"], ["accept", "image/*"], ["Accept-Language", "fr-FR,fr;q=0.9"],
                ["Accept-Encoding", "gzip, deflate, br"], ["Authorization", "Bearer s3cret"], ["Cookie", "id=42"], ["X-Debug", "1"],
            ], "\(raw)")
        let shown = download.report.trace(image: nil).requestHeaders.map { "\($0.name): \($0.value)" }
        #expect(
            shown == [
                "User-Agent: Probe/1", "accept: image/*", "Accept-Language: fr-FR,fr;q=0.9", "Accept-Encoding: gzip, deflate, br",
                "Authorization: (redacted)", "Cookie: (redacted)", "X-Debug: 1",
            ])
    }

    /// The cap counts decoded bytes and stops the decoder there: a 64 MiB gzip bomb (about 64 KiB on the
    /// wire) ends too-large with at most the cap in the sink; a coded body of exactly the cap is attached
    /// though its Content-Length is the encoded size.
    @Test(.timeLimit(.minutes(1)))
    func theCapCountsDecodedBytes() async throws {
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: Self.configuration(server))
        let bomb = try await Self.download(server.url("/enc/gzip-bomb"), pool: pool)
        #expect(bomb.report.failure?.reason == .tooLarge, "\(String(describing: bomb.report.failure))")
        #expect(bomb.report.failure?.detail.hasPrefix("decoded body passed the 10 MiB cap while decoding 'gzip': ") == true)
        #expect(bomb.body.count <= 10_485_760)
        let wire = try #require(bomb.report.hops.last?.facts.wireBytes)
        #expect(wire > 0 && wire < 200_000, "\(wire) wire bytes")
        let exact = try await Self.download(server.url("/enc/gzip-size?bytes=10485760"), pool: pool)
        #expect(exact.report.failure == nil, "\(String(describing: exact.report.failure))")
        #expect(exact.body.count == 10_485_760)
        let over = try await Self.download(server.url("/enc/gzip-size?bytes=10485761"), pool: pool)
        #expect(over.report.failure?.reason == .tooLarge)
        let trace = over.report.trace(image: nil).hops.last
        #expect(trace?.contentEncoding == "gzip")
        #expect((trace?.contentLength ?? 0) < 1_000_000, "the announced length is the encoded one")
    }

    /// One byte count per fact: a body cut at the cap — chunked, announced by no length, or gzip-coded —
    /// has a detail naming the decoded and wire bytes that the trace's last hop shows.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            "/size/cap-plus-1-chunked", "/size/n-chunked?bytes=20000000", "/size/eof?bytes=10485761", "/enc/gzip-bomb",
            "/enc/gzip-size?bytes=10485761",
        ])
    func aCutBodysDetailAndTraceCountTheSameBytes(route: String) async throws {
        let server = TestServer.shared
        let download = try await Self.download(server.url(route), pool: DownloaderPool(configuration: Self.configuration(server)))
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .tooLarge)
        let hop = try #require(download.report.trace(image: nil).hops.last)
        #expect(hop.decodedBytes > 10_485_760)
        #expect(
            failure.detail.contains(
                ": \(hop.decodedBytes) decoded bytes from \(hop.wireBytes) wire bytes, \(hop.decodedBytes - 10_485_760) over the cap;"),
            "\(failure.detail) / \(hop)")
        if hop.contentEncoding == nil { #expect(hop.wireBytes == hop.decodedBytes) } else { #expect(hop.wireBytes < hop.decodedBytes) }
        // What was kept is the sink's, below the cap.
        #expect(download.body.count <= 10_485_760)
    }

    /// A body that does not decode as its coding says is network, said plainly.
    @Test(.timeLimit(.minutes(1)))
    func aBodyThatDoesNotDecodeIsNetwork() async throws {
        let server = TestServer.shared
        let download = try await Self.download(server.url("/enc/bad-gzip"), pool: DownloaderPool(configuration: Self.configuration(server)))
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .network)
        #expect(
            failure.detail.hasPrefix(
                "the body does not decode as its Content-Encoding 'gzip' says: URLSession fails such a download too (libcurl error 61: "))
    }

    /// A server that demands a client certificate is tls, named as such, over TLS 1.2 and 1.3 alike.
    @Test(.timeLimit(.minutes(1)), arguments: ["client_cert_tls12", "client_cert_tls13"])
    func aClientCertificateDemandIsTLS(_ listener: String) async throws {
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: Self.configuration(server))
        let download = try await Self.download(server.url("/img/png", onATSListener: listener), pool: pool)
        let failure = try #require(download.report.failure)
        #expect(failure.reason == .tls)
        #expect(failure.detail.hasPrefix("the server asked for a client certificate, which an extension never sends (libcurl error "))
        let next = try await Self.download(server.url("/img/png"), pool: pool)
        #expect(next.report.failure == nil, "\(String(describing: next.report.failure))")
    }

    struct CapCase: Sendable, CustomTestStringConvertible {
        var path: String
        var cap: Int
        var reason: Reason?
        var testDescription: String { "\(path) with a \(cap)-byte cap" }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            // Announced Content-Length: refused before the body.
            CapCase(path: "/img/png", cap: 1_000, reason: .tooLarge),
            CapCase(path: "/size/n?bytes=1001", cap: 1_000, reason: .tooLarge),
            CapCase(path: "/size/n?bytes=1000", cap: 1_000, reason: nil),
            // No length up front: cut while streaming.
            CapCase(path: "/size/n-chunked?bytes=5000", cap: 1_000, reason: .tooLarge),
            CapCase(path: "/size/n-chunked?bytes=1001", cap: 1_000, reason: .tooLarge),
            CapCase(path: "/size/n-chunked?bytes=1000", cap: 1_000, reason: nil),
            CapCase(path: "/size/eof?bytes=1001", cap: 1_000, reason: .tooLarge),
            CapCase(path: "/size/eof?bytes=1000", cap: 1_000, reason: nil),
        ])
    func smallCapIsEnforced(_ test: CapCase) async throws {
        let server = TestServer.shared
        let pool = DownloaderPool(configuration: Self.configuration(server, maximumBytes: test.cap))
        let download = try await Self.download(server.url(test.path), pool: pool)
        #expect(download.report.failure?.reason == test.reason, "\(download.report)")
        #expect(download.report.bytesWritten == download.body.count)
        #expect(download.body.count <= test.cap)
        if test.reason == nil { #expect(download.body.count == test.cap) }
        if test.reason != nil && (test.path == "/img/png" || test.path.hasPrefix("/size/n?")) {
            #expect(download.body.isEmpty, "an announced oversize body must be refused before it arrives")
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["handshake", "/stall/headers?seconds=30", "/stall/body?seconds=30", "/trickle"])
    func budgetCoversEveryPhase(_ stall: String) async throws {
        let server = TestServer.shared
        let url = stall == "handshake" ? "https://127.0.0.1:\(server.handshakeStallPort)/img/png" : server.url(stall)
        let download = try await Self.download(url, pool: DownloaderPool(configuration: Self.configuration(server, budget: 500)))
        #expect(download.report.failure?.reason == .timeout, "\(download.report)")
        #expect(download.elapsed >= .milliseconds(480) && download.elapsed < .milliseconds(1_500), "took \(download.elapsed)")
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelledTokenNeverConnects() async throws {
        let server = try await onOwnThread { try TestServer() }
        let before = try server.stats()
        let cancellation = DownloadCancellation()
        cancellation.cancel()
        let download = try await Self.download(
            server.url("/img/png"), pool: DownloaderPool(configuration: Self.configuration(server)), cancellation: cancellation)
        #expect(download.report.cancelled)
        #expect(download.report.failure?.reason == .expired)
        #expect(download.body.isEmpty)
        let after = try server.stats()
        #expect(after["connections"] as? Int == before["connections"] as? Int)
    }

    /// Cancelling from another thread ends a stalled transfer at once (SPEC §3: well under 100 ms), and
    /// the downloader works afterwards.
    @Test(.timeLimit(.minutes(1)), arguments: ["handshake", "/stall/headers?seconds=60", "/stall/body?seconds=60"])
    func cancellationIsPromptAndTheDownloaderStaysUsable(_ stall: String) async throws {
        let server = TestServer.shared
        let url = stall == "handshake" ? "https://127.0.0.1:\(server.handshakeStallPort)/img/png" : server.url(stall)
        let pool = DownloaderPool(configuration: Self.configuration(server, budget: 20_000))
        let cancellation = DownloadCancellation()
        let cancelledAt = CallRecorder<Int>()
        // A thread of its own: a dispatch queue may be slow to run a timer while other tests hold its threads.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            cancelledAt.record(0)
            cancellation.cancel()
        }
        let stalled = try await Self.download(url, pool: pool, cancellation: cancellation)
        #expect(stalled.report.cancelled)
        #expect(stalled.report.failure?.reason == .expired)
        let latency = stalled.returned - (try #require(cancelledAt.firstInstant))
        #expect(latency < .milliseconds(100), "returned \(latency) after cancel()")

        let next = try await Self.download(server.url("/img/png"), pool: pool)
        #expect(next.report.failure == nil, "\(String(describing: next.report.failure))")
        #expect(next.body.count == 11_352)
    }
}
