extension FileSystem {
    /// How a file to read may be reached.
    public enum ReadPolicy: Sendable {
        /// A record in a directory of ours (the container, the queue): a regular file, and the final
        /// component never a symbolic link (`O_NOFOLLOW`).
        case regularFileNoFollow
        /// A file in a directory someone listed (a payload directory): a regular file, through links.
        case regularFile
        /// A path a person named as an argument: also a pipe or a device (`<(cat a.json)`,
        /// `/dev/stdin`), read up to the limit; only a directory is refused.
        case namedByUser
    }

    /// Reads a whole file, refusing one larger than `limit` bytes (`EFBIG`; a regular file's size is
    /// checked before anything is read).
    ///
    /// Regular files only, unless `policy` is ``ReadPolicy/namedByUser``: the file is opened with
    /// `O_NONBLOCK` and its type checked on the descriptor (`fstat`), so a FIFO named like a record never
    /// blocks the reader, and a file swapped for one after a listing cannot either. Refusals: `EISDIR`
    /// for a directory, `ELOOP` for a symbolic link under ``ReadPolicy/regularFileNoFollow``, `EINVAL`
    /// ("not a regular file") for a FIFO, socket or device.
    public static func readFile(_ path: String, limit: Int = .max, policy: ReadPolicy = .regularFileNoFollow)
        throws(FileSystemError) -> [UInt8]
    {
        let (descriptor, info) = try openForReading(path, policy: policy)
        defer { system_close(descriptor) }
        var bytes: [UInt8] = []
        if Kind(mode: info.st_mode) == .regularFile {
            let size = Int(info.st_size)
            if size > limit { throw FileSystemError("read", path, errno: _EFBIG) }
            // One read(2) into an array of its size, not two, and no growing array: asked for one byte
            // more than its size, a regular file that gives exactly its size is whole (one that grew
            // gives more, one that shrank less, and both are read on to the end below). A drain reads
            // 1,000 records of a few hundred bytes; a replay reads a 14 MB HAR, which 64 KiB pieces
            // appended to a growing array copied twice over.
            bytes = try readOnce(descriptor: descriptor, capacity: size + 1, path: path)
            if bytes.count == size { return bytes }
            if bytes.count > limit { throw FileSystemError("read", path, errno: _EFBIG) }
        }
        let rest = try readAll(descriptor: descriptor, limit: limit - bytes.count, path: path)
        return bytes.isEmpty ? rest : bytes + rest
    }

    /// One read(2) of up to `capacity` bytes (retrying interruptions).
    private static func readOnce(descriptor: Int32, capacity: Int, path: String) throws(FileSystemError) -> [UInt8] {
        var failure: FileSystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let count = SystemCall.retryingInterrupts { system_read(descriptor, buffer.baseAddress, capacity) }
            if count < 0 { failure = .last("read", path) }
            initialized = max(count, 0)
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads an open descriptor to its end, refusing more than `limit` bytes (`EFBIG`). For pipes and
    /// special files, which have no size up front, the limit is enforced while reading.
    public static func readAll(descriptor: Int32, limit: Int, path: String) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        try readChunks(descriptor: descriptor, path: path) { (piece) throws(FileSystemError) -> Bool in
            if piece.count > limit - bytes.count { throw FileSystemError("read", path, errno: _EFBIG) }
            bytes.append(contentsOf: piece)
            return true
        }
        return bytes
    }

    /// Passes a regular file's bytes to `body` in 64 KiB pieces, to the end or until `body` returns false.
    /// Anything but a regular file is refused, as by ``readFile(_:limit:policy:)``.
    public static func readChunks(
        ofRegularFile path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(FileSystemError) -> Bool
    ) throws(FileSystemError) {
        let (descriptor, _) = try openForReading(path, policy: .regularFile)
        defer { system_close(descriptor) }
        try readChunks(descriptor: descriptor, path: path, body)
    }

    /// Reads an open descriptor in 64 KiB pieces, retrying interruptions, passing each to `body` until the
    /// end or until `body` returns false.
    public static func readChunks(
        descriptor: Int32, path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(FileSystemError) -> Bool
    ) throws(FileSystemError) {
        // Not zero-filled: read(2) fills it, and only the bytes it read are passed on. (A zeroed array
        // cost a 64 KiB memset for every payload file of a few hundred bytes.)
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { chunk.deallocate() }
        while true {
            let count = SystemCall.retryingInterrupts { system_read(descriptor, chunk.baseAddress, chunk.count) }
            if count < 0 { throw .last("read", path) }
            if count == 0 { return }
            if try !body(UnsafeBufferPointer(rebasing: chunk[0..<count])) { return }
        }
    }

    /// Opens `path` read-only and close-on-exec as `policy` allows, and `fstat`s the descriptor.
    static func openForReading(_ path: String, policy: ReadPolicy) throws(FileSystemError)
        -> (descriptor: Int32, info: CStat)
    {
        var flags = _O_RDONLY | _O_CLOEXEC
        switch policy {
        case .regularFileNoFollow: flags |= _O_NOFOLLOW | _O_NONBLOCK
        case .regularFile: flags |= _O_NONBLOCK
        case .namedByUser: break  // A FIFO the user named is theirs to feed: opening it may wait for a writer.
        }
        let descriptor = FileName.withCString(path) { name in SystemCall.retryingInterrupts { system_open(name, flags) } }
        guard descriptor >= 0 else {
            if system_errno == _ELOOP && policy == .regularFileNoFollow {
                throw FileSystemError("open", path, errno: _ELOOP, explanation: "a symbolic link, not followed")
            }
            throw .last("open", path)
        }
        var info = CStat()
        guard system_fstat(descriptor, &info) == 0 else {
            let error = FileSystemError.last("stat", path)
            system_close(descriptor)
            throw error
        }
        let kind = Kind(mode: info.st_mode)
        let refusal: FileSystemError?
        switch (kind, policy) {
        case (.regularFile, _): refusal = nil
        case (.directory, _): refusal = FileSystemError("read", path, errno: _EISDIR)
        case (_, .namedByUser): refusal = nil
        default: refusal = FileSystemError("read", path, errno: _EINVAL, explanation: "not a regular file but \(kind.description)")
        }
        if let refusal {
            system_close(descriptor)
            throw refusal
        }
        return (descriptor, info)
    }
}

extension FileSystem {
    /// Reads exactly `count` bytes at `offset` of a regular file (`pread(2)`, retrying interruptions and
    /// short reads): a piece of a large file located earlier, without reading the rest.
    ///
    /// - Throws: ``FileSystemError`` when the file cannot be opened or read, or ends before `offset + count`
    ///   (`EIO`, "ends before the piece").
    package static func readPiece(of path: String, at offset: Int, count: Int) throws(FileSystemError) -> [UInt8] {
        let bytes = try RandomAccessFile(path).read(offset: offset, count: count)
        guard bytes.count == count else { throw FileSystemError("read", path, errno: _EIO, explanation: "ends before the piece") }
        return bytes
    }
}
