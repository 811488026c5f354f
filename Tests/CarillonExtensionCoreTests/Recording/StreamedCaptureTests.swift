import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A recorded body is written once (SPEC §7): while the download's sink took every piece into its own
/// file, the capture stages a hard link to that file; from the first piece it did not take, the
/// capture writes a file of its own that starts with the sink file's bytes. Either way the staged file
/// holds every byte heard, and the digest is theirs.
@Suite struct StreamedCaptureTests {
    /// A sink as the attachment's: each piece it takes is appended to its file before the tap hears it.
    final class Sink {
        let path: String
        let handle: FileHandle

        init(_ path: String) throws {
            self.path = path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        }

        /// Feeds `pieces` to `capture`, appending those marked taken to the sink's file first.
        func feed(_ pieces: [(bytes: [UInt8], taken: Bool)], to capture: StreamedCapture) throws {
            for piece in pieces {
                if piece.taken { try handle.write(contentsOf: piece.bytes) }
                piece.bytes.withUnsafeBytes { capture.write($0, taken: piece.taken) }
            }
        }
    }

    static func inode(_ path: String) -> (device: UInt64, inode: UInt64, links: UInt64) {
        var info = stat()
        #expect(stat(path, &info) == 0, "\(path)")
        return (UInt64(info.st_dev), UInt64(info.st_ino), UInt64(info.st_nlink))
    }

    static func pieces(_ sizes: [Int], seed: UInt8 = 7) -> [[UInt8]] {
        var next = seed
        return sizes.map { size in
            (0..<size).map { _ in
                next = next &* 31 &+ 17
                return next
            }
        }
    }

    @Test func everyPieceTakenIsTheSinksFileLinked() throws {
        let directory = TemporaryDirectory("capture-link")
        defer { directory.remove() }
        let sink = try Sink(directory.file("attachment.part"))
        let capture = StreamedCapture(directory: directory.path, sinkFile: sink.path)
        let bytes = Self.pieces([100, 70_000, 300_000, 5])
        try sink.feed(bytes.map { ($0, true) }, to: capture)
        let captured = capture.finish()
        let staged = try #require(captured.staged)
        defer { staged.discard() }
        let all = bytes.flatMap { $0 }
        #expect(captured.bytes == all.count && captured.sha256 == SHA256.hex(all) && captured.failure == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged.temporaryPath)) == Data(all))
        let (linked, source) = (Self.inode(staged.temporaryPath), Self.inode(sink.path))
        #expect(linked.inode == source.inode && linked.device == source.device && linked.links == 2)
    }

    /// The piece past the cap (or any the sink refused) is recorded too: the capture's own file from then
    /// on, starting with what the sink's file holds, which is left as it was.
    @Test(arguments: [0, 1, 3])
    func aPieceNotTakenStartsAFileOfItsOwn(takenFirst: Int) throws {
        let directory = TemporaryDirectory("capture-own")
        defer { directory.remove() }
        let sink = try Sink(directory.file("attachment.part"))
        let capture = StreamedCapture(directory: directory.path, sinkFile: sink.path)
        let bytes = Self.pieces([1_000, 200_000, 90_000, 65_537, 12])
        try sink.feed(bytes.enumerated().map { ($0.element, $0.offset < takenFirst) }, to: capture)
        let captured = capture.finish()
        let staged = try #require(captured.staged)
        defer { staged.discard() }
        let all = bytes.flatMap { $0 }
        #expect(captured.bytes == all.count && captured.sha256 == SHA256.hex(all))
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged.temporaryPath)) == Data(all))
        #expect(Self.inode(staged.temporaryPath).inode != Self.inode(sink.path).inode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sink.path)) == Data(bytes.prefix(takenFirst).flatMap { $0 }))
    }

    /// No link across file systems (nor from a file holding other bytes than those taken): the bytes
    /// are copied once, at the end.
    @Test func aSinkFileOnAnotherFileSystemIsCopied() throws {
        let directory = TemporaryDirectory("capture-copy")
        defer { directory.remove() }
        // /dev/shm is a mount of its own: link(2) to the temporary directory fails with EXDEV.
        let elsewhere = "/dev/shm/carillon-capture-\(getpid())"
        defer { unlink(elsewhere) }
        let sink = try Sink(elsewhere)
        #expect(Self.inode(elsewhere).device != Self.inode(directory.path).device)
        let capture = StreamedCapture(directory: directory.path, sinkFile: sink.path)
        let bytes = Self.pieces([300_000, 20_000])
        try sink.feed(bytes.map { ($0, true) }, to: capture)
        let captured = capture.finish()
        let staged = try #require(captured.staged)
        defer { staged.discard() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged.temporaryPath)) == Data(bytes.flatMap { $0 }))
        #expect(captured.sha256 == SHA256.hex(bytes.flatMap { $0 }) && captured.failure == nil)
    }

    @Test func aSinkFileHoldingMoreThanWasTakenIsCopiedUpToWhatWas() throws {
        let directory = TemporaryDirectory("capture-longer")
        defer { directory.remove() }
        let sink = try Sink(directory.file("attachment.part"))
        let capture = StreamedCapture(directory: directory.path, sinkFile: sink.path)
        let bytes = Self.pieces([4_000, 3_000])
        try sink.feed(bytes.map { ($0, true) }, to: capture)
        try sink.handle.write(contentsOf: [1, 2, 3])
        let captured = capture.finish()
        let staged = try #require(captured.staged)
        defer { staged.discard() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: staged.temporaryPath)) == Data(bytes.flatMap { $0 }))
        #expect(Self.inode(staged.temporaryPath).inode != Self.inode(sink.path).inode)
    }
}
