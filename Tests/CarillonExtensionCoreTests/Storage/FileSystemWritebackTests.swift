import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A file staged piece by piece with its writeback started along the way holds exactly the bytes
/// written, in order, whatever the pieces' sizes against the writeback step, and stages and publishes
/// as any staged file does (0600).
@Suite struct FileSystemWritebackTests {
    @Test(arguments: [1, 4_096, 65_536, 100_000, FileSystem.writebackStep, FileSystem.writebackStep + 1, 3 * FileSystem.writebackStep])
    func stagedPiecesAreTheFile(_ pieceSize: Int) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("writeback-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let total = pieceSize == 1 ? 10_000 : 2 * FileSystem.writebackStep + 12_345
        let bytes = (0..<total).map { UInt8(truncatingIfNeeded: $0 &* 31 ^ $0 >> 11) }
        let (descriptor, staged) = try FileSystem.beginStaging(in: directory)
        var written = 0
        try bytes.withUnsafeBytes { all in
            while written < all.count {
                let end = min(written + pieceSize, all.count)
                try FileSystem.writeStaging(
                    descriptor, UnsafeRawBufferPointer(rebasing: all[written..<end]), path: staged.temporaryPath, after: written)
                written = end
            }
        }
        try FileSystem.finishStaging(descriptor, path: staged.temporaryPath)
        let final = directory + "/body.bin"
        #expect(try staged.publish(to: final, replace: true) == .published)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: final))) == bytes)
        let mode = try FileManager.default.attributesOfItem(atPath: final)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
