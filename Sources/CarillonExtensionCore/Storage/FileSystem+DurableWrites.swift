#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Writes all of `bytes` to an open descriptor, retrying short writes and interruptions.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = SystemCall.retryingInterrupts { write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
            if written < 0 { throw .last("write", path) }
            offset += written
        }
    }

    /// Flushes a directory's entries to disk, so that a rename or link in it survives a crash.
    public static func syncDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw .last("open directory", path) }
        defer { close(descriptor) }
        if SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 { throw .last("fsync directory", path) }
    }

    /// Creates a new file that did not exist (`O_EXCL`, never through a link) with exactly `mode`,
    /// whatever the umask, returning its descriptor.
    public static func createExclusive(_ path: String, mode: mode_t = 0o600) throws(FileSystemError) -> Int32 {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) }
        }
        guard descriptor >= 0 else { throw .last("create", path) }
        // The umask may have removed bits; set them exactly.
        if fchmod(descriptor, mode) != 0 {
            let error = FileSystemError.last("set the mode of", path)
            close(descriptor)
            _ = FileName.withCString(path) { unlink($0) }
            throw error
        }
        return descriptor
    }

    public enum PublishResult: Sendable, Equatable {
        case published
        /// A file already had the final name; it was left as it was.
        case alreadyExists
    }

    /// A whole, fsynced file under a temporary name (`.tmp-*`), waiting to be published under its
    /// final name. Staging first keeps the slow part (the write and its fsync) out of any lock the
    /// publish needs.
    public struct StagedFile: Sendable {
        public let temporaryPath: String
        public let directory: String

        /// Gives the file its final name: `link` (never replacing: the first writer wins) or, with
        /// `replace`, `rename`. Not durable until the directory is synced (``syncDirectory(_:)``). The
        /// caller removes the temporary name with ``discard()`` afterwards, whatever happened (one
        /// `defer` covers the paths that never publish too).
        public func publish(to path: String, replace: Bool = false) throws(FileSystemError) -> PublishResult {
            if replace {
                try move(temporaryPath, to: path)
                return .published
            }
            if FileName.withCString(temporaryPath, { from in FileName.withCString(path) { link(from, $0) } }) != 0 {
                guard errno == EEXIST else { throw .last("link", path) }
                return .alreadyExists
            }
            return .published
        }

        /// Removes the temporary file (it may already be gone).
        public func discard() {
            _ = FileName.withCString(temporaryPath) { unlink($0) }
        }
    }

    /// Writes `bytes` to a new temporary file in `directory` with exactly `mode`, and fsyncs it.
    public static func stage(_ bytes: [UInt8], in directory: String, mode: mode_t = 0o600) throws(FileSystemError) -> StagedFile {
        let staged = StagedFile(temporaryPath: join(directory, StaleFiles.temporaryPrefix + uniqueToken()), directory: directory)
        let descriptor = try createExclusive(staged.temporaryPath, mode: mode)
        defer { close(descriptor) }
        do throws(FileSystemError) {
            try bytes.withUnsafeBytes { buffer in
                Result { () throws(FileSystemError) in try writeAll(descriptor, buffer, path: staged.temporaryPath) }
            }.get()
            if SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 { throw .last("fsync", staged.temporaryPath) }
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
    /// ``syncDirectory(_:)`` once after the last: none of them is durable before that.
    ///
    /// - Throws: ``FileSystemError`` naming `path` — the file that could not be saved — even when the
    ///   call that failed was on the temporary file, whose random name means nothing to a reader.
    public static func publishAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600, replace: Bool = false, syncDirectory: Bool = true
    ) throws(FileSystemError) -> PublishResult {
        let directory = parentDirectory(of: path)
        let staged: StagedFile
        do throws(FileSystemError) {
            staged = try stage(bytes, in: directory, mode: mode)
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
        if result == .published && syncDirectory { try FileSystem.syncDirectory(directory) }
        return result
    }

    /// Opens `path` for appending lines (created with mode 0600 when missing; never through a symbolic
    /// link), first cutting a torn last line — bytes after the last `\n`, left by a write a crash cut
    /// short — so that every line after it starts whole. Returns the descriptor and the bytes cut.
    public static func openLineLog(_ path: String) throws(FileSystemError) -> (descriptor: Int32, cut: Int) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { open(name, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        }
        guard descriptor >= 0 else { throw .last("open", path) }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0 else {
            let error = FileSystemError.last("seek", path)
            close(descriptor)
            throw error
        }
        // Back from the end, a chunk at a time, to the last newline.
        var end = Int(size)
        var keep = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        search: while end > 0 {
            let start = max(end - chunk.count, 0)
            let read = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, end - start, off_t(start)) }
            guard read == end - start else {
                let error = FileSystemError.last("read", path)
                close(descriptor)
                throw error
            }
            for index in stride(from: read - 1, through: 0, by: -1) where chunk[index] == 0x0A {
                keep = start + index + 1
                break search
            }
            end = start
        }
        if keep < Int(size) {
            if ftruncate(descriptor, off_t(keep)) != 0 || fsync(descriptor) != 0 {
                let error = FileSystemError.last("cut the torn last line of", path)
                close(descriptor)
                throw error
            }
        }
        return (descriptor, Int(size) - keep)
    }

    /// Appends `bytes` to a descriptor from ``openLineLog(_:)`` and fsyncs it: when this returns, they
    /// are on disk.
    public static func appendDurably(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(FileSystemError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try writeAll(descriptor, buffer, path: path) }
        }.get()
        if SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 { throw .last("fsync", path) }
    }

    /// Closes a descriptor this type opened.
    public static func closeDescriptor(_ descriptor: Int32) { close(descriptor) }
}
