import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Time-will-expire, and `process` on the caller's thread.
extension NotificationServiceTests {
    // MARK: - Time-will-expire

    /// Places where a download can hang: the handshake, before the headers, in the body.
    static let stalls: [Route] = [
        Route("/img/png", .failed(.expired), on: .handshakeStall),
        Route("/stall/headers?seconds=60", .failed(.expired)),
        Route("/stall/body?seconds=60", .failed(.expired)),
    ]

    @Test(.timeLimit(.minutes(1)), arguments: stalls)
    func timeWillExpireDeliversTheOriginalAtOnce(_ stall: Route) async throws {
        let directory = TemporaryDirectory("expire")
        defer { directory.remove() }
        let request = try Self.request(image: stall.url(TestServer.shared))
        // The real 20 s budget: only time-will-expire can end these downloads within the test.
        let configuration = Self.configuration(directory, limits: .standard)
        let recorder = CallRecorder<ServiceResult>()
        let service = NotificationService.didReceive(
            request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
            completion: recorder.record)
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.count == 0, "the stall ended by itself")

        let expiry = ContinuousClock.now
        service.timeWillExpire()
        let result = try #require(await recorder.first(within: .seconds(5)))
        let latency = try #require(recorder.firstInstant) - expiry
        #expect(latency < .milliseconds(100), "delivered \(latency) after time-will-expire")
        let wait = await service.finished()
        #expect(wait < .seconds(1), "the download went on for \(wait) after time-will-expire")

        service.timeWillExpire()
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.count == 1)
        try Self.expectFallback(result, request, .expired, directory)
    }

    @Test(.timeLimit(.minutes(1)))
    func timeWillExpireAfterTheAttachmentChangesNothing() async throws {
        let directory = TemporaryDirectory("expire-late")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/img/png"))
        let configuration = Self.configuration(directory)
        let recorder = CallRecorder<ServiceResult>()
        let service = NotificationService.didReceive(
            request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
            completion: recorder.record)
        let result = try #require(await recorder.first(within: .seconds(10)))
        await service.finished()

        service.timeWillExpire()
        service.timeWillExpire()
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.count == 1)
        // Still one attachment, its file kept in place.
        try Self.expectAttached(result, request, .png, directory)
    }

    /// Time-will-expire racing the end of a fast download, at many offsets: whichever wins, one delivery,
    /// and a file exists exactly when an attachment was delivered.
    @Test(.timeLimit(.minutes(1)))
    func timeWillExpireRacingTheDownloadDeliversOnce() async throws {
        let directory = TemporaryDirectory("expire-race")
        defer { directory.remove() }
        let configuration = Self.configuration(directory)
        let pool = DownloaderPool(configuration: configuration.download)
        var outcomes: [Reason: Int] = [:]
        for round in 0..<40 {
            let request = try Self.request(image: TestServer.shared.url(round.isMultiple(of: 2) ? "/img/png" : "/img/jpeg"))
            let recorder = CallRecorder<ServiceResult>()
            let service = NotificationService.didReceive(request, configuration: configuration, pool: pool, completion: recorder.record)
            let offset = Duration.microseconds(round * 250)
            let deadline = ContinuousClock.now + offset
            while ContinuousClock.now < deadline {}
            service.timeWillExpire()
            await service.finished()
            let result = try #require(await recorder.first(within: .seconds(5)))
            #expect(recorder.count == 1)
            outcomes[result.outcome.reason, default: 0] += 1
            switch result.outcome.reason {
            case .attached:
                let type: ImageType = round.isMultiple(of: 2) ? .png : .jpeg
                try Self.expectAttached(result, request, type, directory)
                try FileSystem.removeFile(result.content.attachments[0].path)
            default:
                try Self.expectFallback(result, request, .expired, directory)
            }
        }
        #expect(outcomes[.expired, default: 0] > 0, "\(outcomes)")
    }

    /// Damage every decoder skips — a JPEG without its EOI — is attached, and the warning that names it
    /// reaches the result: the image shows on the device, and the person debugging knows it is damaged.
    // MARK: - process: the same service run on the caller's thread

    /// `process` attaches as `didReceive` does, and its time-will-expire, scheduled for after the
    /// download, does nothing once the notification is delivered: the attachment stays.
    @Test(.timeLimit(.minutes(1)))
    func processAttachesAndItsExpiryLetsTheAttachmentBe() async throws {
        let directory = TemporaryDirectory("process-attach")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/img/png"))
        let configuration = Self.configuration(directory)
        let pool = DownloaderPool(configuration: configuration.download)
        let result = try await onOwnThread {
            // 3 s: a small image's download, on a machine however loaded, is done well before.
            NotificationService.process(request, configuration: configuration, pool: pool, timeWillExpireAfter: .seconds(3))
        }
        try Self.expectAttached(result, request, .png, directory)
        try await Task.sleep(for: .milliseconds(3300))
        try Self.expectAttached(result, request, .png, directory)
    }

    /// Stalled in the TLS handshake with the real 20 s budget, `process` returns the original content when
    /// its time-will-expire comes, promptly, with no file left behind.
    @Test(.timeLimit(.minutes(1)))
    func processDeliversTheOriginalAtItsTimeWillExpire() async throws {
        let directory = TemporaryDirectory("process-expire")
        defer { directory.remove() }
        let request = try Self.request(image: Route("/img/png", .failed(.expired), on: .handshakeStall).url(TestServer.shared))
        let configuration = Self.configuration(directory, limits: .standard)
        let pool = DownloaderPool(configuration: configuration.download)
        // Timed on the thread that runs it: the await's resumption can wait for a busy test pool.
        let (result, took) = try await onOwnThread {
            let start = ContinuousClock.now
            let result = NotificationService.process(
                request, configuration: configuration, pool: pool, timeWillExpireAfter: .milliseconds(300))
            return (result, ContinuousClock.now - start)
        }
        #expect(took >= .milliseconds(300) && took < .seconds(2), "returned after \(took)")
        #expect(
            result.outcome.detail
                == "time-will-expire arrived before the image was attached, during the TLS handshake with 127.0.0.1, after 0 body bytes")
        try Self.expectFallback(result, request, .expired, directory)
    }

    /// Once `process` has returned, nothing keeps its service alive: the time-will-expire it scheduled on
    /// the service's own cancellation, which never fired, must not hold the service (a strong capture
    /// there kept every finished notification in memory: 3 MB more for 2,000 payloads).
    @Test(.timeLimit(.minutes(1)))
    func processKeepsNothingAliveAfterwards() async throws {
        let directory = TemporaryDirectory("process-release")
        defer { directory.remove() }
        let request = try Self.request(image: TestServer.shared.url("/img/gif"))
        let configuration = Self.configuration(directory)
        let pool = DownloaderPool(configuration: configuration.download)
        let (reason, released) = try await onOwnThread { () -> (Reason, Bool) in
            weak var leftover: NotificationService?
            var reason = Reason.network
            do {
                let (result, service) = NotificationService.processed(
                    request, configuration: configuration, pool: pool, timeWillExpireAfter: .seconds(30))
                leftover = service
                reason = result.outcome.reason
            }
            return (reason, leftover == nil)
        }
        #expect(reason == .attached)
        #expect(released, "the service outlived process()")
    }

    /// Without an image there is nothing to wait for: `process` returns at once, however far off
    /// time-will-expire is.
    @Test(.timeLimit(.minutes(1)))
    func processWithoutAnImageReturnsAtOnce() async throws {
        let directory = TemporaryDirectory("process-no-image")
        defer { directory.remove() }
        let request = try Self.request(image: nil)
        let configuration = Self.configuration(directory)
        let pool = DownloaderPool(configuration: configuration.download)
        let (result, took) = try await onOwnThread {
            let start = ContinuousClock.now
            let result = NotificationService.process(request, configuration: configuration, pool: pool, timeWillExpireAfter: .seconds(30))
            return (result, ContinuousClock.now - start)
        }
        #expect(took < .seconds(5), "returned after \(took)")
        try Self.expectFallback(result, request, .noImage, directory)
    }

    /// A host that waits for the content handler on Dispatch threads must not keep the downloads
    /// themselves from starting. The product's own host, `carillon-nse process --jobs N`, runs N workers
    /// that each block while a notification is processed. On `DispatchQueue.global()` — which on Linux
    /// grows by about one thread a second while its threads are blocked — that once made 11 KB images
    /// from loopback wait seconds to start, so time-will-expire won. Run in a process of its own: a fresh
    /// Dispatch pool, and no starvation of this process's other (timed) tests.
    @Test(.timeLimit(.minutes(1)))
    func concurrentNotificationsAreNotStarvedByWaitingHosts() async throws {
        let directory = TemporaryDirectory("blocked-hosts")
        defer { directory.remove() }
        let jobs = max(16, 4 * ProcessInfo.processInfo.activeProcessorCount)
        try FileManager.default.createDirectory(atPath: directory.file("payloads"), withIntermediateDirectories: true)
        for index in 0..<jobs {
            try directory.write(
                "payloads/\(1000 + index).json",
                Payloads.routed(image: TestServer.shared.url("/img/png"), deliveryID: TestDeliveryID.text(index)))
        }
        let arguments = [
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("attachments"),
            "--budget", "10", "--expire-after", "3", "--jobs", String(jobs), directory.file("payloads"),
        ]
        let run = try await onOwnThread { try Command.tool(arguments) }
        #expect(run.status == 0, "\(run.standardError)")
        let reasons = run.jsonLines.map { $0["reason"] as? String ?? "?" }
        #expect(reasons.count == jobs)
        let late = reasons.filter { $0 != "attached" }
        #expect(late.isEmpty, "\(late.count) of \(jobs) notifications were not attached: \(late)")
    }

}
