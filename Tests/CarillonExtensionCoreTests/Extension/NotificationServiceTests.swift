import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The whole pipeline — payload, routing, download, verification, attachment, delivery — against the
/// real local HTTPS server (SPEC §2–§3): the reason, what was delivered, and what is left on disk.
@Suite struct NotificationServiceTests {
    // MARK: - Fixtures

    /// Short enough that every stall ends quickly, long enough for 10 MiB over loopback under load.
    static let shortBudget = 2_000
    static let cap = 10_485_760

    static func request(image: String?) throws -> NotificationRequest {
        try request(json: Payloads.routed(image: image))
    }

    static func request(json: String) throws -> NotificationRequest {
        NotificationRequest(identifier: "request-1", payload: try Payload(bytes: Array(json.utf8)))
    }

    static func configuration(
        _ directory: TemporaryDirectory, limits: DownloadLimits = DownloadLimits(budget: .milliseconds(shortBudget), maximumBytes: cap)
    ) -> ExtensionConfiguration {
        ExtensionConfiguration(
            attachmentsDirectory: directory.path,
            download: DownloadConfiguration(limits: limits, extraCAFile: TestServer.shared.caFile))
    }

    /// Every name in the attachments directory, hidden `.part` files included.
    static func entries(_ directory: TemporaryDirectory) throws -> [String] {
        try FileSystem.contentsOfDirectory(directory.path)
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Asserts the fallback SPEC §3 promises: the original content untouched, no file left.
    static func expectFallback(
        _ result: ServiceResult, _ request: NotificationRequest, _ reason: Reason, _ directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(result.outcome.reason == reason, "\(result.outcome)", sourceLocation: sourceLocation)
        #expect(result.delivered == .original, sourceLocation: sourceLocation)
        #expect(result.content == request.content, sourceLocation: sourceLocation)
        #expect(result.content.userInfoBytes == request.content.userInfoBytes, sourceLocation: sourceLocation)
        #expect(result.content.attachments.isEmpty, sourceLocation: sourceLocation)
        #expect(try entries(directory) == [], sourceLocation: sourceLocation)
    }

    /// Asserts an attachment as SPEC §2 describes it; returns its file name.
    @discardableResult
    static func expectAttached(
        _ result: ServiceResult, _ request: NotificationRequest, _ type: ImageType, _ directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String? {
        #expect(result.outcome.reason == .attached, "\(result.outcome)", sourceLocation: sourceLocation)
        #expect(result.delivered == .modified, sourceLocation: sourceLocation)
        var withoutAttachments = result.content
        withoutAttachments.attachments = []
        #expect(withoutAttachments == request.content, sourceLocation: sourceLocation)
        #expect(result.content.userInfoBytes == request.content.userInfoBytes, sourceLocation: sourceLocation)
        guard result.content.attachments.count == 1, let attachment = result.content.attachments.first else {
            Issue.record("expected one attachment, got \(result.content.attachments)", sourceLocation: sourceLocation)
            return nil
        }
        let name = String(attachment.path.split(separator: "/").last ?? "")
        #expect(attachment.type == type, sourceLocation: sourceLocation)
        #expect(
            FileSystem.parentDirectory(of: attachment.path) == FileSystem.parentDirectory(of: directory.file(name)),
            sourceLocation: sourceLocation)
        #expect(name.hasPrefix("image-") && name.hasSuffix("." + type.fileExtension), "\(name)", sourceLocation: sourceLocation)
        #expect(name == "\(attachment.identifier).\(type.fileExtension)", sourceLocation: sourceLocation)
        #expect(FileSystem.size(attachment.path) == attachment.byteCount, sourceLocation: sourceLocation)
        #expect(mode(attachment.path) == 0o600, sourceLocation: sourceLocation)
        #expect(try entries(directory) == [name], sourceLocation: sourceLocation)
        return name
    }

    // MARK: - Every route

    enum Listener: Sendable {
        case main, unknownCA, wrongHost, handshakeStall, closed
    }

    enum Expected: Sendable {
        case attached(ImageType, bytes: Int? = nil)
        case failed(Reason, detail: String? = nil)
    }

    struct Route: Sendable, CustomTestStringConvertible {
        var path: String
        var listener: Listener = .main
        var expected: Expected
        /// Wall time the outcome must come within (the 1 GiB body must be cut, not received).
        var within: Duration = .seconds(8)

        init(_ path: String, _ expected: Expected, on listener: Listener = .main, within: Duration = .seconds(8)) {
            self.path = path
            self.expected = expected
            self.listener = listener
            self.within = within
        }

        func url(_ server: TestServer) -> String {
            switch listener {
            case .main: return server.url(path)
            case .unknownCA: return "https://127.0.0.1:\(server.unknownCAPort)\(path)"
            case .wrongHost: return "https://127.0.0.1:\(server.wrongHostPort)\(path)"
            case .handshakeStall: return "https://127.0.0.1:\(server.handshakeStallPort)\(path)"
            case .closed: return "https://127.0.0.1:\(server.closedPort)\(path)"
            }
        }

        var testDescription: String { "\(listener) \(path)" }
    }

    static let routes: [Route] = [
        // Images, whatever the URL or Content-Type claim: the bytes decide.
        Route("/img/jpeg", .attached(.jpeg, bytes: ServedImages.jpegBytes)),
        Route("/img/png", .attached(.png, bytes: 11_352)),
        Route("/img/gif", .attached(.gif, bytes: ServedImages.gifBytes)),
        Route("/img/gif-animated", .attached(.gif, bytes: ServedImages.animatedGIFBytes)),
        Route("/img/png-as-jpeg", .attached(.png, bytes: 11_352)),
        Route("/img/png-as-octet", .attached(.png, bytes: 11_352)),
        Route("/img/looks-like.jpg", .attached(.png, bytes: 11_352)),
        Route("/img/html-as-png", .failed(.unsupportedType)),
        // Not JPEG, PNG or GIF, or not whole.
        Route("/bad/webp", .failed(.unsupportedType)),
        Route("/bad/heic", .failed(.unsupportedType)),
        Route("/bad/svg", .failed(.unsupportedType)),
        Route("/bad/html", .failed(.unsupportedType)),
        Route("/bad/text", .failed(.unsupportedType)),
        Route("/bad/truncated-png", .failed(.unsupportedType)),
        Route("/bad/truncated-body", .failed(.network)),
        Route("/bad/empty", .failed(.emptyBody)),
        Route("/echo/headers", .failed(.unsupportedType)),
        // The 10 MiB cap, announced, chunked and delimited by EOF.
        Route("/size/cap", .attached(.jpeg, bytes: cap)),
        Route("/size/cap-chunked", .attached(.jpeg, bytes: cap)),
        Route("/size/cap-plus-1", .failed(.tooLarge)),
        Route("/size/cap-plus-1-chunked", .failed(.tooLarge)),
        Route("/size/n?bytes=10485761", .failed(.tooLarge)),
        Route("/size/n?bytes=10485760", .attached(.jpeg, bytes: cap)),
        Route("/size/n", .attached(.jpeg, bytes: ServedImages.jpegBytes)),
        Route("/size/n-chunked?bytes=5000", .attached(.jpeg, bytes: 5_000)),
        Route("/size/eof?bytes=5000", .attached(.jpeg, bytes: 5_000)),
        Route("/size/eof?bytes=10485761", .failed(.tooLarge)),
        Route("/size/gigabyte-chunked", .failed(.tooLarge), within: .seconds(10)),
        // Round 3: gzip, deflate and br are asked for and decoded, as URLSession does; any other coding
        // is content-encoding; a body that does not decode is network.
        Route("/enc/gzip", .attached(.png, bytes: 11_352)),
        Route("/enc/br", .attached(.png, bytes: 11_352)),
        Route("/enc/gzip-then-br", .attached(.png, bytes: 11_352)),
        Route("/enc/zstd", .failed(.contentEncoding)),
        Route("/enc/bad-gzip", .failed(.network)),
        Route("/enc/gzip-bomb", .failed(.tooLarge)),
        Route("/enc/identity", .attached(.png, bytes: 11_352)),
        // Redirects: https only, at most 5.
        Route("/redirect/relative", .attached(.png, bytes: 11_352)),
        Route("/redirect/absolute", .attached(.png, bytes: 11_352)),
        Route("/redirect/307", .attached(.png, bytes: 11_352)),
        Route("/redirect/308", .attached(.png, bytes: 11_352)),
        Route("/redirect/hops/0", .attached(.png, bytes: 11_352)),
        Route("/redirect/hops/5", .attached(.png, bytes: 11_352)),
        Route("/redirect/hops/6", .failed(.tooManyRedirects)),
        Route("/redirect/loop", .failed(.tooManyRedirects)),
        Route("/redirect/to-http", .failed(.insecureURL)),
        Route("/redirect/to-file", .failed(.insecureURL)),
        // Status 200 only; the detail names the status.
        Route("/status/204", .failed(.httpStatus, detail: "204")),
        Route("/status/404", .failed(.httpStatus, detail: "404")),
        Route("/status/500", .failed(.httpStatus, detail: "500")),
        Route("/status/200", .failed(.unsupportedType)),
        Route("/no/such/route", .failed(.httpStatus, detail: "404")),
        // The budget covers every phase.
        Route("/stall/headers?seconds=30", .failed(.timeout)),
        Route("/stall/body?seconds=30", .failed(.timeout)),
        Route("/trickle", .failed(.timeout)),
        Route("/trickle?bytes=69&interval=0.002", .attached(.png, bytes: 69)),
        Route("/img/png", .failed(.timeout), on: .handshakeStall),
        // Transport failures.
        Route("/img/png", .failed(.tls), on: .unknownCA),
        Route("/img/png", .failed(.tls), on: .wrongHost),
        Route("/img/png", .failed(.network), on: .closed),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: routes)
    func everyRouteEndsAsSpecified(_ route: Route) async throws {
        let server = TestServer.shared
        let directory = TemporaryDirectory("route")
        defer { directory.remove() }
        let url = route.url(server)
        let request = try Self.request(image: url)
        let configuration = Self.configuration(directory)
        let recorder = CallRecorder<ServiceResult>()
        let start = ContinuousClock.now
        let service = NotificationService.didReceive(
            request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
            completion: recorder.record)
        let result = try #require(await recorder.first(within: .seconds(30)))
        let elapsed = try #require(recorder.firstInstant) - start
        #expect(await service.finished() < .seconds(1))
        #expect(recorder.count == 1)
        #expect(result.routed)
        #expect(elapsed < route.within, "took \(elapsed)")

        switch route.expected {
        case .attached(let type, let bytes):
            try Self.expectAttached(result, request, type, directory)
            let attachment = try #require(result.content.attachments.first)
            if let bytes { #expect(attachment.byteCount == bytes) }
            // The server's images are intact: nothing for the verifier to warn about. (A Content-Type that
            // lies about the bytes is warned about on its own, by design.)
            #expect(result.warnings.allSatisfy { $0.hasPrefix("the server sent Content-Type") }, "\(result.warnings)")
            let reference = try await onOwnThread { try Curl.bytes(url, caFile: server.caFile) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: attachment.path)) == reference)
        case .failed(let reason, let detail):
            try Self.expectFallback(result, request, reason, directory)
            if let detail { #expect(result.outcome.detail.contains(detail), "\(result.outcome)") }
            if reason == .timeout {
                #expect(elapsed >= .milliseconds(Self.shortBudget - 50), "timed out early: \(elapsed)")
            }
        }
    }

    // MARK: - URLs refused before any connection

    @Test(.timeLimit(.minutes(1)))
    func badURLsAreRefusedBeforeAnyConnection() async throws {
        // A server of this test's own: the shared one counts other tests' connections.
        let server = try await onOwnThread { try TestServer() }
        let port = server.port
        let cases: [(json: String, reason: Reason)] = [
            (Payloads.routed(image: "http://127.0.0.1:\(port)/img/png"), .insecureURL),
            (Payloads.routed(image: "HTTP://127.0.0.1:\(port)/img/png"), .insecureURL),
            (Payloads.routed(image: "ftp://127.0.0.1:\(port)/img/png"), .insecureURL),
            (Payloads.routed(image: "file:///etc/passwd"), .insecureURL),
            (Payloads.routed(image: "https://user:secret@127.0.0.1:\(port)/img/png"), .invalidURL),
            (Payloads.routed(image: "https://user@127.0.0.1:\(port)/img/png"), .invalidURL),
            (Payloads.routed(image: "//127.0.0.1:\(port)/img/png"), .invalidURL),
            (Payloads.routed(image: "/img/png"), .invalidURL),
            (Payloads.routed(image: "https:/127.0.0.1:\(port)/img/png"), .invalidURL),
            (Payloads.routed(image: "https://127.0.0.1:\(port)/img/a png"), .invalidURL),
            (Payloads.routed(image: "https://127.0.0.1:99999/img/png"), .invalidURL),
            (Payloads.routed(image: ""), .invalidURL),
            (#"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":42}}"#, .invalidURL),
        ]
        let directory = TemporaryDirectory("bad-url")
        defer { directory.remove() }
        var configuration = Self.configuration(directory)
        configuration.download.extraCAFile = server.caFile
        let pool = DownloaderPool(configuration: configuration.download)

        for (json, reason) in cases {
            let before = try server.stats()
            let request = try Self.request(json: json)
            let recorder = CallRecorder<ServiceResult>()
            let service = NotificationService.didReceive(request, configuration: configuration, pool: pool, completion: recorder.record)
            let result = try #require(await recorder.first(within: .seconds(5)), "\(json)")
            await service.finished()
            let after = try server.stats()
            #expect(recorder.count == 1)
            try Self.expectFallback(result, request, reason, directory)
            #expect(after["connections"] as? Int == before["connections"] as? Int, "\(json) connected")
            #expect(after["tls_failures"] as? Int == before["tls_failures"] as? Int, "\(json)")
            #expect(after["total_requests"] as? Int == before["total_requests"] as? Int, "\(json)")
        }

        // The control: a good URL to the same server is seen, so the counts above could have moved.
        let before = try server.stats()
        let request = try Self.request(image: server.url("/img/png"))
        let recorder = CallRecorder<ServiceResult>()
        let service = NotificationService.didReceive(request, configuration: configuration, pool: pool, completion: recorder.record)
        let result = try #require(await recorder.first(within: .seconds(10)))
        await service.finished()
        let after = try server.stats()
        #expect(result.outcome.reason == .attached, "\(result.outcome)")
        #expect(after["connections"] as? Int == (before["connections"] as? Int ?? 0) + 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func damageTheDecodersSkipIsAttachedWithAWarning() async throws {
        let directory = TemporaryDirectory("damaged")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/img/jpeg-no-eoi"))
        let configuration = Self.configuration(directory)
        let pool = DownloaderPool(configuration: configuration.download)
        let result = try await onOwnThread {
            NotificationService.process(request, configuration: configuration, pool: pool, timeWillExpireAfter: .seconds(30))
        }
        try Self.expectAttached(result, request, .jpeg, directory)
        #expect(result.content.attachments.first?.byteCount == ServedImages.jpegBytes - 2, "/img/jpeg without its two EOI bytes")
        #expect(result.warnings.contains { $0.hasPrefix("JPEG has no EOI marker") }, "\(result.warnings)")
    }

    // MARK: - The real budget

    /// The one test that spends the product's real 20 s: a 1 byte/s body that would take 1000 s.
    @Test(.timeLimit(.minutes(1)))
    func theStandardBudgetEndsATrickleAfterTwentySeconds() async throws {
        let directory = TemporaryDirectory("budget")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/trickle?bytes=1000"))
        let configuration = Self.configuration(directory, limits: .standard)
        #expect(configuration.download.limits.budget == .seconds(20))
        let recorder = CallRecorder<ServiceResult>()
        let start = ContinuousClock.now
        let service = NotificationService.didReceive(
            request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
            completion: recorder.record)
        let result = try #require(await recorder.first(within: .seconds(40)))
        let elapsed = try #require(recorder.firstInstant) - start
        await service.finished()
        #expect(elapsed >= .milliseconds(19_500) && elapsed <= .seconds(22), "took \(elapsed)")
        #expect(result.elapsed >= .milliseconds(19_500) && result.elapsed <= .milliseconds(22_000))
        #expect(recorder.count == 1)
        try Self.expectFallback(result, request, .timeout, directory)
    }
}
