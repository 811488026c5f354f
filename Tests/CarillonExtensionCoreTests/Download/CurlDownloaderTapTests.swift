import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// libcurl's debug callback (and with it `CURLOPT_VERBOSE`) is on only for a recording's downloaders:
/// a download's tap hears the request head and the wire bytes there, and nothing of them elsewhere.
@Suite(.timeLimit(.minutes(1))) struct CurlDownloaderTapTests {
    /// A tap that counts what it hears.
    final class CountingTap: TransferTap, @unchecked Sendable {
        var hops = 0
        var head: [UInt8] = []
        var wire: [UInt8] = []
        var body = 0
        func startHop(number: Int) { hops = number }
        func requestHead(_ bytes: UnsafeRawBufferPointer) { head += bytes }
        func wire(_ bytes: UnsafeRawBufferPointer) { wire += bytes }
        func body(_ piece: UnsafeRawBufferPointer, taken: Bool) { body += piece.count }
    }

    static func tapped(_ route: String, recording: Bool) async throws -> (TransferReport, CountingTap) {
        let server = TestServer.shared
        let configuration = CurlDownloaderTests.configuration(server)
        return try await onOwnThread {
            let tap = CountingTap()
            let downloader = try CurlDownloader(configuration: configuration, recording: recording)
            let report = downloader.download(try! ImageURL(validating: server.url(route)), cancellation: DownloadCancellation(), tap: tap) {
                _ in
                true
            }
            return (report, tap)
        }
    }

    @Test func aRecordingDownloaderHearsTheRequestAndTheWire() async throws {
        let (report, tap) = try await Self.tapped("/enc/gzip-chunked", recording: true)
        #expect(report.failure == nil)
        #expect(String(decoding: tap.head, as: UTF8.self).hasPrefix("GET /enc/gzip-chunked HTTP/1.1\r\nHost: 127.0.0.1:"))
        // Chunk framing and gzip both still on: more bytes than libcurl's own wire count, which leaves the framing out.
        #expect(tap.wire.count > report.hops[0].facts.wireBytes && Array(tap.wire.prefix(5)) == Array("256\r\n".utf8))
        #expect(tap.body == report.bytesWritten)
    }

    /// Without recording, the debug callback is never set: only the body pieces reach a tap.
    @Test func anyOtherDownloaderHearsNeither() async throws {
        let (report, tap) = try await Self.tapped("/enc/gzip-chunked", recording: false)
        #expect(report.failure == nil)
        #expect(tap.head.isEmpty && tap.wire.isEmpty)
        #expect(tap.hops == 1 && tap.body == report.bytesWritten)
    }
}
