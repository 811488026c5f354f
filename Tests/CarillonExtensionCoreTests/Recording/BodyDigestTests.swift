import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A recorded body's SHA-256: hashed from its first pieces, then from the file that holds them, read
/// back on a queue of its own while the download goes on; the digest is the bytes' whatever the way.
@Suite struct BodyDigestTests {
    /// Appends each piece to the file at `path` (when `written`), then tells `digest` the file holds them.
    static func feed(_ digest: BodyDigest, _ pieces: [[UInt8]], path: String, inFile: (Int) -> Bool = { _ in true }) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var total = 0
        for (index, piece) in pieces.enumerated() {
            try handle.write(contentsOf: piece)
            total += piece.count
            piece.withUnsafeBytes { digest.add($0, total: total, file: inFile(index) ? path : nil) }
        }
    }

    static let pieces = StreamedCaptureTests.pieces([100_000, 100_000, 100_000, 1, 700_000, 33, 250_000])

    @Test func aFileIsFollowedPastTheInlineLimit() throws {
        let directory = TemporaryDirectory("digest-follow")
        defer { directory.remove() }
        let digest = BodyDigest()
        try Self.feed(digest, Self.pieces, path: directory.file("body"))
        #expect(digest.finish() == SHA256.hex(Self.pieces.flatMap { $0 }))
        #expect(digest.failure == nil)
    }

    /// The bytes leave the file (a capture gave it up, or moved to one of its own): the follower stops
    /// where the file still held them and the rest is hashed from the pieces.
    @Test(arguments: [3, 4, 6])
    func theRestIsHashedFromThePiecesOnceTheFileNoLongerHoldsThem(from index: Int) throws {
        let directory = TemporaryDirectory("digest-leave")
        defer { directory.remove() }
        let digest = BodyDigest()
        try Self.feed(digest, Self.pieces, path: directory.file("body")) { $0 < index }
        #expect(digest.finish() == SHA256.hex(Self.pieces.flatMap { $0 }))
    }

    @Test func aSmallBodyNeverOpensItsFile() {
        let digest = BodyDigest()
        let bytes = Array(repeating: UInt8(9), count: BodyDigest.inlineLimit)
        bytes.withUnsafeBytes { digest.add($0, total: bytes.count, file: "/nonexistent/body") }
        #expect(digest.finish() == SHA256.hex(bytes))
    }

    /// A file that does not hold what was said (it ends first) is no digest at all, never a wrong one.
    @Test func aFileEndingBeforeTheBytesSaidIsAFailure() throws {
        let directory = TemporaryDirectory("digest-short")
        defer { directory.remove() }
        let path = directory.file("body")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.pieces[0] + Self.pieces[1] + Self.pieces[2])))
        let digest = BodyDigest()
        var total = 0
        for piece in Self.pieces {
            total += piece.count
            piece.withUnsafeBytes { digest.add($0, total: total, file: path) }
        }
        #expect(digest.finish() == nil)
        #expect(digest.failure?.reason.contains("the file ends at 300000 bytes") == true, "\(String(describing: digest.failure))")
    }
}
