import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The attachments directory: where downloads stream to and verified images are published.
///
/// Every name is made here — never from the URL, a header or the payload. A download streams into a
/// hidden `.download-*.part` file (0600) that is renamed to `image-*.<ext>` once its bytes are
/// verified, or removed on any failure, so no partial or unverified file is ever left behind under an
/// attachment's name.
@_spi(Tooling) public struct AttachmentStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// A file being downloaded into.
    struct PartialFile {
        let descriptor: Int32
        let path: String
    }

    /// Creates the directory (0700) if needed and a new private file to download into.
    ///
    /// - Throws: an ``Outcome`` with ``Reason/storage``.
    func createPartialFile() throws(Outcome) -> PartialFile {
        do {
            try FileSystem.makeDirectory(directory, mode: 0o700)
            let path = FileSystem.join(directory, StaleFiles.partialPrefix + FileSystem.uniqueToken() + StaleFiles.partialSuffix)
            // Registered before it exists, so that a signal at any instant finds it (a path not created
            // yet is simply not there to remove).
            _ = AttachmentStore.inProgress.withLock { $0.insert(path) }
            do {
                return PartialFile(descriptor: try FileSystem.createExclusive(path, mode: 0o600), path: path)
            } catch {
                AttachmentStore.inProgress.withLock { _ = $0.remove(path) }
                throw error
            }
        } catch {
            throw Outcome(.storage, "cannot create the attachment file: \(error)")
        }
    }

    /// Gives a verified download its attachment name, with the extension of its detected type.
    ///
    /// - Throws: an ``Outcome`` with ``Reason/storage``.
    func publish(_ partial: PartialFile, type: ImageType, byteCount: Int) throws(Outcome) -> NotificationAttachment {
        let identifier = "image-\(FileSystem.uniqueToken())"
        let path = FileSystem.join(directory, "\(identifier).\(type.fileExtension)")
        do {
            try FileSystem.move(partial.path, to: path)
            AttachmentStore.inProgress.withLock { _ = $0.remove(partial.path) }
        } catch {
            throw Outcome(.storage, "cannot publish the attachment: \(error)")
        }
        return NotificationAttachment(identifier: identifier, path: path, type: type, byteCount: byteCount)
    }

    /// Removes a file of this store; one already gone is fine.
    func discard(_ path: String) {
        try? FileSystem.removeFile(path)
        AttachmentStore.inProgress.withLock { _ = $0.remove(path) }
    }

    /// The partial files of downloads under way, in every store of this process.
    private static let inProgress = Mutex<Set<String>>([])

    /// Removes the partial file of every download under way, then calls `end` — which must end the
    /// process — still holding the registry, so that no download can create a new one in between: for
    /// a process about to end on a signal (SIGINT, SIGTERM). Safe from any thread.
    public static func removeFilesInProgress(thenEnd end: () -> Never) -> Never {
        inProgress.withLock { paths -> Never in
            for path in paths { _ = FileName.withCString(path) { unlink($0) } }
            end()
        }
    }
}
