import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `FileSystem.readFile`: whole files of every size around its one-read path (under 64 KiB) and its
/// chunked path, and the size limit exactly at and below the file's size.
@Suite struct FileSystemReadingTests {
    static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test(arguments: [0, 1, 100, 4095, 4096, 65_534, 65_535, 65_536, 65_537, 200_000])
    func readsTheWholeFile(_ size: Int) throws {
        let work = TemporaryDirectory("read")
        defer { work.remove() }
        let path = work.file("record")
        _ = try FileSystem.publishAtomically(Self.bytes(size), to: path, mode: 0o600, replace: true)
        #expect(try FileSystem.readFile(path) == Self.bytes(size))
        #expect(try FileSystem.readFile(path, limit: size) == Self.bytes(size))
        if size > 0 {
            #expect { try FileSystem.readFile(path, limit: size - 1) } throws: { error in
                (error as? FileSystemError)?.errno == EFBIG
            }
        }
    }
}
