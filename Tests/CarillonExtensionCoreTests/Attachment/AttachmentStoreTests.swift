import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The attachments directory: hidden private partial files, published under names the store makes.
@Suite struct AttachmentStoreTests {
    @Test func aPartialFileIsHiddenPrivateAndInAPrivateDirectory() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let partial = try store.createPartialFile()
        defer { close(partial.descriptor) }
        let name = FileSystem.lastComponent(partial.path)
        #expect(name.hasPrefix(".download-") && name.hasSuffix(".part"), "\(name)")
        var info = stat()
        #expect(stat(partial.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(store.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        store.discard(partial.path)
        #expect(!FileSystem.exists(partial.path))
        store.discard(partial.path)  // a second discard of a file already gone is fine
    }

    @Test(arguments: [(ImageType.png, "png"), (.jpeg, "jpg"), (.gif, "gif")])
    func publishingNamesTheFileAfterItsDetectedType(type: ImageType, fileExtension: String) throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let partial = try store.createPartialFile()
        close(partial.descriptor)
        let attachment = try store.publish(partial, type: type, byteCount: 42)
        #expect(attachment.path == FileSystem.join(store.directory, "\(attachment.identifier).\(fileExtension)"))
        #expect(attachment.identifier.hasPrefix("image-"))
        #expect(attachment.type == type && attachment.byteCount == 42)
        #expect(FileSystem.exists(attachment.path) && !FileSystem.exists(partial.path))
    }

    @Test func twoPartialFilesNeverShareAName() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let store = AttachmentStore(directory: scratch.file("attachments"))
        let files = try (0..<50).map { _ in try store.createPartialFile() }
        defer { for file in files { close(file.descriptor) } }
        #expect(Set(files.map(\.path)).count == files.count)
    }

    @Test func aDirectoryThatCannotBeMadeIsAStorageOutcome() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let blocker = scratch.file("file")
        _ = try FileSystem.publishAtomically(Array("x".utf8), to: blocker, replace: true)
        let store = AttachmentStore(directory: FileSystem.join(blocker, "attachments"))
        #expect { try store.createPartialFile() } throws: { error in
            (error as? Outcome)?.reason == .storage && "\(error)".contains("cannot create the attachment file")
        }
    }
}
