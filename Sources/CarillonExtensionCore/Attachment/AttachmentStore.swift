import Synchronization

/// The attachments directory: where downloads stream to and verified images are published.
///
/// Every name is made here — never from the URL, a header or the payload. A download streams into a
/// hidden `.download-*.part` file (0600) that is renamed to `image-*.<ext>` once its bytes are
/// verified, or removed on any failure, so no partial or unverified file is ever left behind under an
/// attachment's name. A ``PartialFile`` owns each such file until it is published, kept or gone.
@_spi(Tooling) public struct AttachmentStore: Sendable {
    /// Where its files go.
    public let directory: String
    /// Whether each notification gets a file of its own that outlasts the runtime. When false, the
    /// directory lasts only as long as its runtime, and notifications that share an image share its one
    /// verified file (no link or copy per notification).
    public let keepsFiles: Bool

    /// A store of files in `directory`.
    public init(directory: String, keepsFiles: Bool = true) {
        self.directory = directory
        self.keepsFiles = keepsFiles
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
                return PartialFile(store: self, path: path, descriptor: try FileSystem.createExclusive(path, mode: 0o600))
            } catch {
                AttachmentStore.inProgress.withLock { _ = $0.remove(path) }
                throw error
            }
        } catch {
            throw Outcome(.storage, "cannot create the attachment file: \(error)")
        }
    }

    /// Gives the verified file at `partialPath` (a partial file of this store, still open: its owner closes it) its attachment
    /// name, with the extension of its detected type. On failure it is left where it was.
    ///
    /// - Throws: an ``Outcome`` with ``Reason/storage``.
    private func publish(_ partialPath: String, type: ImageType, byteCount: Int) throws(Outcome) -> NotificationAttachment {
        let identifier = "image-\(FileSystem.uniqueToken())"
        let path = FileSystem.join(directory, "\(identifier).\(type.fileExtension)")
        do {
            try FileSystem.move(partialPath, to: path)
            AttachmentStore.inProgress.withLock { _ = $0.remove(partialPath) }
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

    /// The directories that last only as long as their run, in every runtime of this process.
    private static let runDirectories = Mutex<Set<String>>([])

    /// Records `directory` as lasting only for the run: a signal removes it (``removeFilesInProgress(thenEnd:)``)
    /// as ``removeRunDirectory(_:)`` does at the run's end.
    static func registerRunDirectory(_ directory: String) {
        _ = runDirectories.withLock { $0.insert(directory) }
    }

    /// Removes a directory that lasted only for its run: the files a store makes in it (attachments and
    /// partial downloads), then the directory itself. Anything else found there is left, and so is the
    /// directory holding it. A directory never created is fine.
    @_spi(Tooling) public static func removeRunDirectory(_ directory: String) {
        // The two registries in the order a signal takes them.
        inProgress.withLock { paths in
            runDirectories.withLock { directories in
                removeStoreFiles(in: directory)
                directories.remove(directory)
            }
            let inside = directory + "/"
            paths = paths.filter { !$0.hasPrefix(inside) }
        }
    }

    /// Removes the files a store made in a directory that lasts for its run (attachments and partial
    /// downloads) and keeps the directory, still registered, for the run's next notification: a run
    /// whose notifications each get a runtime of their own (a replay of many recordings) then makes and
    /// removes one directory, not one per notification. ``removeRunDirectory(_:)`` ends it.
    @_spi(Tooling) public static func emptyRunDirectory(_ directory: String) {
        inProgress.withLock { paths in
            removeStoreFiles(in: directory, keepingDirectory: true)
            let inside = directory + "/"
            paths = paths.filter { !$0.hasPrefix(inside) }
        }
    }

    private static func removeStoreFiles(in directory: String, keepingDirectory: Bool = false) {
        guard let entries = try? DirectoryListing.entries(directory, followLink: false) else { return }
        for entry in entries
        where entry.name.hasPrefix("image-")
            || (entry.name.hasPrefix(StaleFiles.partialPrefix) && entry.name.hasSuffix(StaleFiles.partialSuffix))
        {
            FileSystem.removeQuietly(FileSystem.join(directory, entry.name))
        }
        if !keepingDirectory { FileSystem.removeEmptyDirectoryQuietly(directory) }
    }

    /// Removes the partial file of every download under way and every directory that lasts only for
    /// its run, then calls `end` — which must end the process — still holding the registry, so that no
    /// download can create a new one in between: for a process about to end on a signal (SIGINT,
    /// SIGTERM). Safe from any thread.
    public static func removeFilesInProgress(thenEnd end: () -> Never) -> Never {
        inProgress.withLock { paths -> Never in
            for path in paths { FileSystem.removeQuietly(path) }
            runDirectories.withLock { directories -> Never in
                for directory in directories { removeStoreFiles(in: directory) }
                end()
            }
        }
    }
}

extension AttachmentStore {
    /// A file being downloaded into: the one owner of its hidden `.download-*.part` name and of its
    /// open descriptor, so that a partial file is published at most once and never left open or behind.
    ///
    /// It ends in one of three ways, each consuming it: ``publish(type:byteCount:)`` renames it to its
    /// attachment name; ``keep()`` closes it and hands its path to a caller that shares it (a
    /// ``SharedImageSource``, which removes it with ``AttachmentStore/discard(_:)``); or it is dropped —
    /// on any failure — and its `deinit` removes it. The descriptor is closed by `deinit` in every case.
    struct PartialFile: ~Copyable {
        let path: String
        private let store: AttachmentStore
        /// Open until this owner ends, which closes it: nothing else closes it, and only ``write(_:)``
        /// writes to it (the tests read it to see it closed).
        let descriptor: Int32
        /// True until the file is published or kept: until then it is this owner's to remove.
        private var owned = true

        fileprivate init(store: AttachmentStore, path: String, descriptor: Int32) {
            self.store = store
            self.path = path
            self.descriptor = descriptor
        }

        deinit {
            FileSystem.close(descriptor)
            if owned { store.discard(path) }
        }

        /// Appends all of `bytes` to the file.
        func write(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) {
            try FileSystem.writeAll(descriptor, bytes, path: path)
        }

        /// Makes this partial file the file at `source` (a replay's body, already whole): a second name
        /// of it (`link`) renamed over this one, so that no byte is written again. Only for a regular
        /// file of mode 0600, as an attachment is, on the same file system; false, with nothing changed,
        /// otherwise (the caller writes the pieces as usual). Nothing must have been written yet.
        func adopt(_ source: String) -> Bool {
            guard (try? FileSystem.kind(source)) == .regularFile, FileSystem.permissions(source) == 0o600 else { return false }
            // Named as a partial download is, so that whatever sweeps those (a killed run's) finds it too.
            let linked = FileSystem.join(store.directory, StaleFiles.partialPrefix + FileSystem.uniqueToken() + StaleFiles.partialSuffix)
            guard FileSystem.hardLink(source, to: linked) else { return false }
            do {
                try FileSystem.move(linked, to: path)
                return true
            } catch {
                FileSystem.removeQuietly(linked)
                return false
            }
        }

        /// Gives the verified file its attachment name, with the extension of its detected type; on
        /// failure the file is removed.
        ///
        /// - Throws: an ``Outcome`` with ``Reason/storage``.
        consuming func publish(type: ImageType, byteCount: Int) throws(Outcome) -> NotificationAttachment {
            let attachment = try store.publish(path, type: type, byteCount: byteCount)
            owned = false
            return attachment
        }

        /// Closes the verified file and hands over its path, still registered as in progress (a signal
        /// removes it): removing it is now the caller's, with ``AttachmentStore/discard(_:)``.
        consuming func keep() -> String {
            owned = false
            return path
        }

        /// Removes the file now (dropping it does the same, at the end of its scope).
        consuming func discard() {}
    }
}
