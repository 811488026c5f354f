/// One name in a directory, as ``FileName`` maps its bytes, and its type when the listing said it.
@_spi(Tooling) public struct DirectoryEntry: Sendable, Equatable {
    /// The name, lossless (``FileName``): not UTF-8 bytes are escaped, never replaced.
    public var name: String
    /// The type from `readdir`'s `d_type`; nil where the file system does not say (then `lstat` tells).
    public var kind: FileSystem.Kind?

    /// Whether the name is valid UTF-8.
    var isUTF8: Bool { !FileName.hasEscapes(name) }
}

/// `readdir`, with names kept as bytes.
@_spi(Tooling) public enum DirectoryListing {
    /// The entries of a directory (no `.` or `..`), sorted by their names' bytes. With `followLink:
    /// false` the directory itself must not be a symbolic link (`ELOOP`).
    public static func entries(_ path: String, followLink: Bool = true) throws(FileSystemError) -> [DirectoryEntry] {
        var entries: [DirectoryEntry] = []
        try forEachEntry(path, followLink: followLink) { name, type in
            entries.append(DirectoryEntry(name: FileName.string(fromBytes: name), kind: kind(ofDirectoryEntryType: type)))
        }
        return entries.map { (key: FileName.bytes($0.name), entry: $0) }
            .sorted { precedes($0.key, $1.key) }
            .map(\.entry)
    }

    /// Whether `a` sorts before `b` byte by byte (`memcmp`, then the shorter first): the order
    /// `lexicographicallyPrecedes` gives, without its generic element loop (most of a drain's listing
    /// of 1,000 receipts).
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        let common = min(a.count, b.count)
        let order = a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in common == 0 ? 0 : system_memcmp(a.baseAddress!, b.baseAddress!, common) }
        }
        return order != 0 ? order < 0 : a.count < b.count
    }

    /// Calls `body` with each entry's name bytes (no `.` or `..`) and `d_type`, in the directory's own
    /// order, making no `String`: for a hot path such as counting the pending receipts.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be opened or read: `readdir` returns NULL
    ///   both at the end and on an error, and only `errno` tells them apart — a failed listing never
    ///   passes for a short one.
    static func forEachEntry(
        _ path: String, followLink: Bool, _ body: (UnsafeBufferPointer<UInt8>, UInt8) -> Void
    ) throws(FileSystemError) {
        let flags = _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC | (followLink ? 0 : _O_NOFOLLOW)
        let descriptor = FileName.withCString(path) { name in SystemCall.retryingInterrupts { system_open(name, flags) } }
        guard descriptor >= 0 else { throw .last("read directory", path) }
        guard let stream = system_fdopendir(descriptor) else {
            let error = FileSystemError.last("read directory", path)
            system_close(descriptor)
            throw error
        }
        defer { system_closedir(stream) }
        while true {
            system_errno = 0
            guard let entry = system_readdir(stream) else {
                if system_errno != 0 { throw .last("read directory", path) }
                return
            }
            // The name in place: a dirent is only as long as its name (d_reclen), so copying the whole
            // 256-byte d_name field out of it can read past the end of readdir's buffer.
            let start = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeBufferPointer(
                start: start.assumingMemoryBound(to: UInt8.self), count: system_strlen(start.assumingMemoryBound(to: CChar.self)))
            let dot = UInt8(ascii: ".")
            if (name.count == 1 && name[0] == dot) || (name.count == 2 && name[0] == dot && name[1] == dot) { continue }
            body(name, (UnsafeRawPointer(entry) + typeOffset).load(as: UInt8.self))
        }
    }

    // Fields read in place, never through `entry.pointee`, which may copy the whole fixed-size struct.
    private static let nameOffset = MemoryLayout<CDirent>.offset(of: \CDirent.d_name)!
    private static let typeOffset = MemoryLayout<CDirent>.offset(of: \CDirent.d_type)!

    static func kind(ofDirectoryEntryType type: UInt8) -> FileSystem.Kind? {
        switch Int32(type) {
        case Int32(_DT_REG): return .regularFile
        case Int32(_DT_DIR): return .directory
        case Int32(_DT_LNK): return .symbolicLink
        case Int32(_DT_FIFO), Int32(_DT_SOCK), Int32(_DT_CHR), Int32(_DT_BLK): return .special
        default: return nil
        }
    }
}
