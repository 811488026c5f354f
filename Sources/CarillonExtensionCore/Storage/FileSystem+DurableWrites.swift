extension FileSystem {
    /// Writes all of `bytes` to an open descriptor, retrying short writes and interruptions.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retryingInterrupts { system_write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
            if written < 0 { throw .last("write", path) }
            offset += written
        }
    }

    /// Flushes a directory's entries to disk, so that a rename or link in it survives a crash.
    public static func syncDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw .last("open directory", path) }
        defer { system_close(descriptor) }
        if SystemCall.retryingInterrupts({ system_fsync(descriptor) }) != 0 { throw .last("fsync directory", path) }
    }

    /// Creates a new file that did not exist (`O_EXCL`, never through a link) with exactly `mode`,
    /// whatever the umask, returning its descriptor.
    public static func createExclusive(_ path: String, mode: CModeT = 0o600) throws(FileSystemError) -> Int32 {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_WRONLY | _O_CREAT | _O_EXCL | _O_CLOEXEC | _O_NOFOLLOW, mode) }
        }
        guard descriptor >= 0 else { throw .last("create", path) }
        // The umask may have removed bits; set them exactly.
        if system_fchmod(descriptor, mode) != 0 {
            let error = FileSystemError.last("set the mode of", path)
            system_close(descriptor)
            _ = FileName.withCString(path) { system_unlink($0) }
            throw error
        }
        return descriptor
    }

    public enum PublishResult: Sendable, Equatable {
        case published
        /// A file already had the final name; it was left as it was.
        case alreadyExists
    }

    /// A whole file under a temporary name (`.tmp-*`), waiting to be published under its final name:
    /// fsynced, unless what it holds owes no durability (a recording). Staging first keeps the slow
    /// part (the write and its fsync) out of any lock the publish needs.
    public struct StagedFile: Sendable {
        /// The file's name until it is published.
        public let temporaryPath: String
        public let directory: String

        /// A staged file of `temporaryPath`, in ``StagedFiles`` until ``discard()``.
        init(temporaryPath: String, directory: String) {
            self.temporaryPath = temporaryPath
            self.directory = directory
            StagedFiles.add(temporaryPath)
        }

        /// Gives the file its final name: `link` (never replacing: the first writer wins) or, with
        /// `replace`, `rename`. Not durable until the directory is synced (``syncDirectory(_:)``). The
        /// caller removes the temporary name with ``discard()`` afterwards, whatever happened (one
        /// `defer` covers the paths that never publish too).
        public func publish(to path: String, replace: Bool = false) throws(FileSystemError) -> PublishResult {
            if replace {
                try move(temporaryPath, to: path)
                return .published
            }
            if FileName.withCString(temporaryPath, { from in FileName.withCString(path) { system_link(from, $0) } }) != 0 {
                guard system_errno == _EEXIST else { throw .last("link", path) }
                return .alreadyExists
            }
            return .published
        }

        /// Removes the temporary file (it may already be gone).
        public func discard() {
            _ = FileName.withCString(temporaryPath) { system_unlink($0) }
            StagedFiles.remove(temporaryPath)
        }
    }

    /// Writes `bytes` to a new temporary file in `directory` with exactly `mode`, and fsyncs it (unless
    /// `synced` is false: a file that must be whole when published but need not survive a power cut).
    public static func stage(_ bytes: [UInt8], in directory: String, mode: CModeT = 0o600, synced: Bool = true) throws(FileSystemError)
        -> StagedFile
    {
        let staged = StagedFile(temporaryPath: join(directory, StaleFiles.temporaryPrefix + uniqueToken()), directory: directory)
        let descriptor = try createExclusive(staged.temporaryPath, mode: mode)
        defer { system_close(descriptor) }
        do throws(FileSystemError) {
            try bytes.withUnsafeBytes { buffer in
                Result { () throws(FileSystemError) in try writeAll(descriptor, buffer, path: staged.temporaryPath) }
            }.get()
            if synced, SystemCall.retryingInterrupts({ system_fsync(descriptor) }) != 0 { throw .last("fsync", staged.temporaryPath) }
        } catch {
            staged.discard()
            throw error
        }
        return staged
    }

    /// Durably writes `bytes` to `path` so that a crash at any instant leaves either no file there or the
    /// whole one: a temporary file in the same directory, fsync, `link` to the final name (which never
    /// replaces an existing file, so the first writer wins), unlink the temporary, fsync the directory.
    ///
    /// A caller publishing many files into one directory may pass `syncDirectory: false` and call
    /// ``syncDirectory(_:)`` once after the last: none of them is durable before that. With `synced`
    /// false nothing is fsynced at all: the file is still never seen torn or half-written (a reader
    /// finds no file, an older one, or the whole new one), but a power cut may lose it — for evidence
    /// such as a recording, never for a receipt, the queue or the sent log.
    ///
    /// - Throws: ``FileSystemError`` naming `path` — the file that could not be saved — even when the
    ///   call that failed was on the temporary file, whose random name means nothing to a reader.
    public static func publishAtomically(
        _ bytes: [UInt8], to path: String, mode: CModeT = 0o600, replace: Bool = false, syncDirectory: Bool = true,
        synced: Bool = true
    ) throws(FileSystemError) -> PublishResult {
        let directory = parentDirectory(of: path)
        let staged: StagedFile
        do throws(FileSystemError) {
            staged = try stage(bytes, in: directory, mode: mode, synced: synced)
        } catch {
            throw error.naming(path)
        }
        defer { staged.discard() }  // after a rename, an unlink that finds nothing
        let result: PublishResult
        do throws(FileSystemError) {
            result = try staged.publish(to: path, replace: replace)
        } catch {
            throw error.naming(path)
        }
        if result == .published && syncDirectory && synced { try FileSystem.syncDirectory(directory) }
        return result
    }
}

extension FileSystem {
    /// A file being written piece by piece under a temporary name in `directory` (exactly `mode`), to be
    /// closed whole and then published like ``stage(_:in:mode:synced:)``'s. Dropped unfinished, the
    /// caller discards it.
    public static func beginStaging(in directory: String, mode: CModeT = 0o600) throws(FileSystemError) -> (Int32, StagedFile) {
        let staged = StagedFile(temporaryPath: join(directory, StaleFiles.temporaryPrefix + uniqueToken()), directory: directory)
        return (try createExclusive(staged.temporaryPath, mode: mode), staged)
    }

    /// Stages the file at `source` under a temporary name in `directory` without copying a byte: a
    /// hard link (`link(2)`), never a symbolic one, so it keeps the bytes when `source`'s name is
    /// removed. Its mode and owner are `source`'s; it is whole as far as `source` is.
    ///
    /// - Throws: ``FileSystemError`` when the link cannot be made (another file system: `EXDEV`; one
    ///   without links; too many links).
    package static func stageLink(of source: String, in directory: String) throws(FileSystemError) -> StagedFile {
        let staged = StagedFile(temporaryPath: join(directory, StaleFiles.temporaryPrefix + uniqueToken()), directory: directory)
        guard hardLink(source, to: staged.temporaryPath) else { throw .last("link", source) }
        return staged
    }

    /// Closes a descriptor of ``beginStaging(in:mode:)`` without syncing it (a file that owes no
    /// durability, or an abandoned staging).
    public static func closeDescriptor(_ descriptor: Int32) {
        system_close(descriptor)
    }
}

extension FileSystem {
    /// Makes sure a file exists at `path` (created 0644 if missing; an existing one is left as it is,
    /// never truncated), as `touch` does for a file another program waits for.
    package static func touch(_ path: String) throws(FileSystemError) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_WRONLY | _O_CREAT | _O_CLOEXEC | _O_NONBLOCK, 0o644) }
        }
        guard descriptor >= 0 else { throw .last("open", path) }
        system_close(descriptor)
    }
}
