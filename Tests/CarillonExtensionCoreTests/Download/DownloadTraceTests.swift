import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The transfer trace (SPEC §6): the pure decisions from tables, then real downloads against the local
/// HTTPS server — a redirect chain's hops, timings, TLS on new connections only, stalled phases, and
/// the image's geometry.
@Suite struct DownloadTraceTests {
    struct TimingCase: Sendable, CustomTestStringConvertible {
        var raw: [Int64]
        var total: Int64
        var expected: DownloadTrace.Timings
        var testDescription: String { "\(raw) total \(total)" }
    }

    @Test(arguments: [
        // A new connection: every step reached.
        TimingCase(
            raw: [50, 250, 7_000, 8_400], total: 8_700, expected: .init(dns: 0.05, connect: 0.25, tls: 7, firstByte: 8.4, total: 8.7)),
        // A stalled handshake: nothing after the name lookup.
        TimingCase(
            raw: [47, 0, 0, 0], total: 1_000_700, expected: .init(dns: 0.047, connect: nil, tls: nil, firstByte: nil, total: 1000.7)),
        // Skipped steps inside the reached ones take the value before them; never decreasing.
        TimingCase(raw: [0, 0, 0, 500], total: 700, expected: .init(dns: 0, connect: 0, tls: 0, firstByte: 0.5, total: 0.7)),
        TimingCase(raw: [40, 30, 900, 800], total: 100, expected: .init(dns: 0.04, connect: 0.04, tls: 0.9, firstByte: 0.9, total: 0.9)),
        // Nothing at all: a refused connection before the lookup was timed.
        TimingCase(raw: [0, 0, 0, 0], total: 200, expected: .init(dns: nil, connect: nil, tls: nil, firstByte: nil, total: 0.2)),
    ])
    func timingsAreCumulativeAndNeverDecrease(_ test: TimingCase) {
        #expect(DownloadTrace.Timings.cumulative(microseconds: test.raw, total: test.total) == test.expected)
    }

    struct PhaseCase: Sendable, CustomTestStringConvertible {
        var finished = false
        var connected = true
        var newConnection = true
        var raw: [Int64]
        var expected: DownloadTrace.Phase
        var testDescription: String { "\(expected): \(raw)" }
    }

    @Test(arguments: [
        PhaseCase(finished: true, raw: [1, 2, 3, 4], expected: .done),
        PhaseCase(connected: false, raw: [0, 0, 0, 0], expected: .dns),
        PhaseCase(connected: false, raw: [40, 0, 0, 0], expected: .connect),
        // libcurl 7.88 reports the connect time only with the handshake: the peer's address says connected.
        PhaseCase(connected: true, raw: [40, 0, 0, 0], expected: .tls),
        PhaseCase(raw: [40, 200, 7_000, 0], expected: .waiting),
        PhaseCase(raw: [40, 200, 7_000, 8_000], expected: .body),
        // A reused connection: libcurl reports the skipped steps as reached, or not at all.
        PhaseCase(raw: [30, 30, 30, 0], expected: .waiting),
        PhaseCase(newConnection: false, raw: [30, 0, 0, 0], expected: .waiting),
    ])
    func phaseFromWhatWasReached(_ test: PhaseCase) {
        let r = test.raw
        #expect(
            DownloadTrace.Phase.decide(
                finished: test.finished, connected: test.connected, newConnection: test.newConnection, dns: r[0], connect: r[1], tls: r[2],
                firstByte: r[3]) == test.expected)
    }

    static func expectNeverDecreasing(_ timings: DownloadTrace.Timings, sourceLocation: SourceLocation = #_sourceLocation) {
        let steps = [timings.dns, timings.connect, timings.tls, timings.firstByte].compactMap { $0 } + [timings.total]
        #expect(steps == steps.sorted(), "\(timings)", sourceLocation: sourceLocation)
    }

    static func trace(_ url: String, budget: Int = 5_000) async throws -> DownloadTrace {
        let download = try await CurlDownloaderRedirectTests.download(url, budget: budget)
        return download.report.trace(image: nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func aTwoRedirectChainGivesThreeHops() async throws {
        // A server of this test's own, so that the first hop opens the connection the others reuse.
        let server = try await onOwnThread { try TestServer() }
        let download = try await CurlDownloaderRedirectTests.download(server.url("/redirect/hops/2"), server: server)
        let traced = download.report.trace(image: nil)
        #expect(traced.hops.map(\.status) == [302, 302, 200])
        #expect(traced.hops.map(\.url) == ["/redirect/hops/2", "/redirect/hops/1", "/redirect/hops/0"].map(server.url))
        #expect(traced.hops.map(\.location) == ["/redirect/hops/1", "/redirect/hops/0", nil])
        #expect(traced.hops.allSatisfy { $0.remote == "127.0.0.1:\(server.port)" && $0.httpVersion == "1.1" })
        #expect(traced.hops.last?.contentType == "image/png")
        #expect(traced.hops.last?.contentLength == 11_352)
        #expect(traced.hops[0].tls?.version.hasPrefix("TLSv1.") == true)
        #expect(traced.hops[0].tls?.cipher.isEmpty == false)
        #expect(traced.hops[1].tls == nil && traced.hops[2].tls == nil, "the connection was reused: no handshake")
        for hop in traced.hops { Self.expectNeverDecreasing(hop.timings) }
        #expect(traced.bodyBytes == 11_352)
        #expect(traced.budget == .milliseconds(5_000))
        #expect(traced.phase == .done)
    }

    struct StallCase: Sendable, CustomTestStringConvertible {
        var route: String
        var phase: DownloadTrace.Phase
        var bodyBytes = 0
        var testDescription: String { route }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            StallCase(route: "handshake", phase: .tls),
            StallCase(route: "closed", phase: .connect),
            StallCase(route: "/stall/headers?seconds=5", phase: .waiting),
            StallCase(route: "/stall/body?seconds=5", phase: .body, bodyBytes: 100),
            StallCase(route: "/trickle", phase: .body),
        ])
    func eachStallEndsInItsPhase(_ test: StallCase) async throws {
        let server = TestServer.shared
        let url =
            switch test.route {
            case "handshake": "https://127.0.0.1:\(server.handshakeStallPort)/img/png"
            case "closed": "https://127.0.0.1:\(server.closedPort)/img/png"
            default: server.url(test.route)
            }
        // Long enough for a handshake on a loaded machine, short enough to end each stall quickly.
        let trace = try await Self.trace(url, budget: 2_500)
        #expect(trace.phase == test.phase, "\(trace)")
        #expect(trace.hops.count == 1)
        if test.route != "/trickle" { #expect(trace.bodyBytes == test.bodyBytes) }
        if let hop = trace.hops.first { Self.expectNeverDecreasing(hop.timings) }
        if test.phase == .waiting || test.phase == .body {
            #expect(trace.hops.first?.tls != nil, "the handshake was done before the stall")
        }
    }

    struct ImageCase: Sendable, CustomTestStringConvertible {
        var path: String
        var image: DownloadTrace.Image
        var testDescription: String { path }
    }

    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            // The server serves the sample images (sample.png padded): their geometry, from the table below.
            ImageCase(path: "/img/jpeg", image: sampleGeometry("sample.jpg")),
            ImageCase(path: "/img/png", image: sampleGeometry("sample.png")),
            // The one image the server makes itself: a red pixel.
            ImageCase(path: "/img/tiny-png", image: .init(type: .png, width: 1, height: 1, frames: 1)),
            ImageCase(path: "/img/gif", image: sampleGeometry("static.gif")),
            ImageCase(path: "/img/gif-animated", image: sampleGeometry("animated.gif")),
        ])
    func theAttachedImageHasItsGeometry(_ test: ImageCase) async throws {
        let directory = TemporaryDirectory("trace")
        defer { directory.remove() }
        let request = try NotificationServiceTests.request(image: TestServer.shared.url(test.path))
        let configuration = NotificationServiceTests.configuration(directory)
        let result = try await onOwnThread {
            NotificationService.process(
                request, configuration: configuration, pool: DownloaderPool(configuration: configuration.download),
                timeWillExpireAfter: .seconds(30))
        }
        #expect(result.outcome.reason == .attached)
        #expect(result.imageURL == TestServer.shared.url(test.path))
        #expect(result.trace?.image == test.image)
        #expect(result.trace?.phase == .done)
    }

    /// The sample images' geometry as the trace reports it (TestAssets/Images/README.md; the verifier's
    /// reading of it, split every way and on changed headers, is `ImageVerifierGeometryTests`).
    static let sampleGeometries: [(String, DownloadTrace.Image)] = [
        ("sample.png", DownloadTrace.Image(type: .png, width: 16, height: 12, frames: 1)),
        ("sample.jpg", DownloadTrace.Image(type: .jpeg, width: 16, height: 16, frames: 1)),
        ("static.gif", DownloadTrace.Image(type: .gif, width: 16, height: 12, frames: 1)),
        ("animated.gif", DownloadTrace.Image(type: .gif, width: 16, height: 12, frames: 3)),
    ]

    static func sampleGeometry(_ name: String) -> DownloadTrace.Image {
        sampleGeometries.first { $0.0 == name }?.1 ?? DownloadTrace.Image(type: .png, width: 0, height: 0, frames: 0)
    }
}
