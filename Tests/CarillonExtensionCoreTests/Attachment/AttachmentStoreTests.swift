import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The attachments directory: hidden private partial files, published under names the store makes, each
/// file owned by one `PartialFile` that closes it and, unless it was published or kept, removes it.
@Suite struct AttachmentStoreTests {
    @Test func aPartialFileIsHiddenPrivateAndInAPrivateDirectory() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let partial = try store.createPartialFile()
        let path = partial.path
        let name = FileSystem.lastComponent(path)
        #expect(name.hasPrefix(".download-") && name.hasSuffix(".part"), "\(name)")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(store.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        partial.discard()
        #expect(!FileSystem.exists(path))
        store.discard(path)  // a second discard of a file already gone is fine
    }

    @Test(arguments: [(ImageType.png, "png"), (.jpeg, "jpg"), (.gif, "gif")])
    func publishingNamesTheFileAfterItsDetectedType(type: ImageType, fileExtension: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let partial = try store.createPartialFile()
        try Self.bytes.withUnsafeBytes { try partial.write($0) }
        let partialPath = partial.path
        let attachment = try partial.publish(type: type, byteCount: 42)
        #expect(attachment.path == FileSystem.join(store.directory, "\(attachment.identifier).\(fileExtension)"))
        #expect(attachment.identifier.hasPrefix("image-"))
        #expect(attachment.type == type && attachment.byteCount == 42)
        #expect(FileSystem.exists(attachment.path) && !FileSystem.exists(partialPath))
        #expect(try FileSystem.readFile(attachment.path) == Self.bytes)
    }

    static let bytes = Array("carillon".utf8)

    /// Where a partial file ends, by how its owner ends: whether the file is still there, and its bytes.
    enum Ending: String, CaseIterable, Sendable {
        case dropped, discarded, kept
    }

    @Test(arguments: Ending.allCases)
    func theOwnerClosesTheFileAndRemovesItUnlessKept(_ ending: Ending) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let (path, descriptor, inode) = try { () throws -> (String, Int32, ino_t) in
            let partial = try store.createPartialFile()
            try Self.bytes.withUnsafeBytes { try partial.write($0) }
            var info = stat()
            #expect(fstat(partial.descriptor, &info) == 0)
            let seen = (partial.path, partial.descriptor, info.st_ino)
            switch ending {
            case .dropped: break  // the owner ends at the end of this closure
            case .discarded: partial.discard()
            case .kept: #expect(partial.keep() == seen.0)
            }
            return seen
        }()
        // The descriptor is closed: it is no longer open, or (reused since) names another file.
        var info = stat()
        #expect(fstat(descriptor, &info) != 0 || info.st_ino != inode)
        switch ending {
        case .dropped, .discarded:
            #expect(!FileSystem.exists(path))
        case .kept:
            #expect(try FileSystem.readFile(path) == Self.bytes)
            store.discard(path)
            #expect(!FileSystem.exists(path))
        }
    }

    /// Holds a partial file open (an array cannot hold a noncopyable value itself).
    final class Held {
        let file: AttachmentStore.PartialFile
        init(_ file: consuming AttachmentStore.PartialFile) { self.file = file }
    }

    @Test func twoPartialFilesNeverShareAName() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let files = try (0..<50).map { _ in Held(try store.createPartialFile()) }
        #expect(Set(files.map { $0.file.path }).count == files.count)
    }

    @Test func aDirectoryThatCannotBeMadeIsAStorageOutcome() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let blocker = scratch.file("file")
        _ = try FileSystem.publishAtomically(Array("x".utf8), to: blocker, replace: true)
        let store = AttachmentStore(directory: FileSystem.join(blocker, "attachments"))
        #expect { _ = try store.createPartialFile() } throws: { error in
            (error as? Outcome)?.reason == .storage && "\(error)".contains("cannot create the attachment file")
        }
    }
}
