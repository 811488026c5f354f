extension FileSystem {
    /// Opens `path` for reading as `policy` allows (the same checks as ``readFile(_:limit:policy:)``)
    /// and returns the descriptor (`open(2)`, close-on-exec), for a caller that reads it piece by piece.
    public static func openForStreaming(_ path: String, policy: ReadPolicy) throws(FileSystemError) -> Int32 {
        try openForReading(path, policy: policy).descriptor
    }

    /// One `read(2)` into `buffer`, retrying interruptions: the count read, 0 at the end.
    public static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws(FileSystemError)
        -> Int
    {
        let count = SystemCall.retryingInterrupts { system_read(descriptor, buffer.baseAddress, buffer.count) }
        if count < 0 { throw .last("read", path) }
        return count
    }

    /// A scratch file with no name: created in `directory` (0600, `O_RDWR | O_EXCL`) and unlinked at
    /// once, so nothing is left behind whatever ends the process. Returns its descriptor.
    public static func createScratchFile(in directory: String) throws(FileSystemError) -> Int32 {
        let path = join(directory, StaleFiles.temporaryPrefix + "scratch-" + uniqueToken())
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_RDWR | _O_CREAT | _O_EXCL | _O_CLOEXEC | _O_NOFOLLOW, 0o600) }
        }
        guard descriptor >= 0 else { throw .last("open", path) }
        _ = FileName.withCString(path) { system_unlink($0) }
        return descriptor
    }

    /// Whether a file can be created in `directory` now: a scratch file (``createScratchFile(in:)``) is
    /// made and closed, and nothing is left behind.
    ///
    /// - Throws: ``FileSystemError`` saying why not: a read-only file system, no permission, no such
    ///   directory.
    public static func checkCanCreateFile(in directory: String) throws(FileSystemError) {
        close(try createScratchFile(in: directory))
    }
}
