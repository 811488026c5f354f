import Synchronization

/// Thin, typed wrappers over the POSIX calls the extension needs for durable, private files. Every path
/// goes to the C library through ``FileName/withCString(_:_:)``, so names that are not UTF-8 work.
///
/// Foundation's `FileManager` hides `fsync`, `O_EXCL`, `link`, `O_NOFOLLOW` and exact modes, which the
/// receipt, queue and attachment guarantees depend on. The concerns live in their own files: reading
/// (`FileSystem+Reading`), durable writes (`FileSystem+DurableWrites`), locks (``FileLock``), listings
/// (``DirectoryListing``), and the record directories built on them (``RecordDirectory``).
@_spi(Tooling) public enum FileSystem {
    /// What a path is, by `lstat` (a symbolic link is itself, never its target).
    public enum Kind: Sendable, Equatable {
        case missing
        case regularFile
        case directory
        case symbolicLink
        /// A FIFO, socket or device.
        case special

        /// Words for a message: "a regular file", "a symbolic link", …
        public var description: String {
            switch self {
            case .missing: return "missing"
            case .regularFile: return "a regular file"
            case .directory: return "a directory"
            case .symbolicLink: return "a symbolic link"
            case .special: return "a FIFO, socket or device"
            }
        }

        /// The kind a `stat` mode says.
        public init(mode: CModeT) {
            switch mode & _S_IFMT {
            case _S_IFREG: self = .regularFile
            case _S_IFDIR: self = .directory
            case _S_IFLNK: self = .symbolicLink
            default: self = .special
            }
        }
    }

    /// `lstat`: what is at `path`, not following a final symbolic link.
    ///
    /// - Throws: ``FileSystemError`` for any failure but the path's absence.
    public static func kind(_ path: String) throws(FileSystemError) -> Kind {
        var info = CStat()
        guard FileName.withCString(path, { system_lstat($0, &info) }) == 0 else {
            if system_errno == _ENOENT { return .missing }
            throw .last("inspect", path)
        }
        return Kind(mode: info.st_mode)
    }

    /// Creates `path` and any missing parents, each with exactly `mode` whatever the umask; an existing
    /// directory is left as it is (parents may be links; see ``RecordDirectory`` for directories of ours).
    public static func makeDirectory(_ path: String, mode: CModeT = 0o700) throws(FileSystemError) {
        guard !path.isEmpty else { throw FileSystemError("create directory", path, errno: _ENOENT) }
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if parent != path && !parent.isEmpty && !isDirectory(parent) {
            try makeDirectory(parent, mode: mode)
        }
        let made = FileName.withCString(path) { system_mkdir($0, mode) } == 0
        if !made && system_errno != _EEXIST { throw .last("create directory", path) }
        guard isDirectory(path) else { throw FileSystemError("create directory", path, errno: _ENOTDIR) }
        // The umask may have removed bits (0277 would leave 0500, unusable by its owner): set them exactly.
        if made { try setDirectoryMode(path, mode) }
    }

    /// Sets a directory's permission bits exactly, on a descriptor opened without following a link, so
    /// that a link swapped in since the caller looked never redirects the change.
    public static func setDirectoryMode(_ path: String, _ mode: CModeT) throws(FileSystemError) {
        let descriptor = FileName.withCString(path) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC) }
        }
        guard descriptor >= 0 else { throw .last("set the mode of", path) }
        defer { system_close(descriptor) }
        if system_fchmod(descriptor, mode) != 0 { throw .last("set the mode of", path) }
    }

    /// Whether `path` is a directory, following links.
    public static func isDirectory(_ path: String) -> Bool {
        var info = CStat()
        return FileName.withCString(path) { system_stat($0, &info) } == 0 && (info.st_mode & _S_IFMT) == _S_IFDIR
    }

    /// Whether anything (a dangling link included) is at `path`.
    public static func exists(_ path: String) -> Bool {
        var info = CStat()
        return FileName.withCString(path) { system_lstat($0, &info) } == 0
    }

    /// The permission bits of a file, or nil when it does not exist.
    static func permissions(_ path: String) -> CModeT? {
        var info = CStat()
        guard FileName.withCString(path, { system_stat($0, &info) }) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The size of a file in bytes, or nil when it cannot be read.
    public static func size(_ path: String) -> Int? {
        var info = CStat()
        guard FileName.withCString(path, { system_stat($0, &info) }) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The directory part of a path (`"."` for a bare name). Split on the byte `/`, never on a
    /// `Character`: a name may start with a combining mark, which would fuse with the slash.
    public static func parentDirectory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == slash { bytes.removeLast() }
        guard let index = bytes.lastIndex(of: slash) else { return "." }
        if index == 0 { return "/" }
        return String(decoding: bytes[..<index], as: UTF8.self)
    }

    /// The last component of a path, split on the byte `/` (see ``parentDirectory(of:)``).
    public static func lastComponent(_ path: String) -> String {
        let bytes = path.utf8
        guard let index = bytes.lastIndex(of: slash) else { return path }
        return String(decoding: bytes[bytes.index(after: index)...], as: UTF8.self)
    }

    /// `directory/name` (an empty directory is the current one, never the root).
    public static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.utf8.last == slash ? directory + name : directory + "/" + name
    }

    /// Whether `path` is `directory` or inside it, comparing bytes (never Unicode-equivalent forms).
    public static func isSameOrInside(_ path: String, _ directory: String) -> Bool {
        let inner = Array(path.utf8)
        let outer = Array(directory.utf8)
        guard inner.starts(with: outer) else { return false }
        return inner.count == outer.count || outer.last == slash || inner[outer.count] == slash
    }

    private static let slash = UInt8(ascii: "/")

    /// The visible and hidden names in a directory (no `.` or `..`), sorted by their bytes.
    public static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        try DirectoryListing.entries(path).map(\.name)
    }

    /// Removes a file; a file that is already gone is not an error.
    public static func removeFile(_ path: String) throws(FileSystemError) {
        if FileName.withCString(path, { system_unlink($0) }) != 0 && system_errno != _ENOENT { throw .last("remove", path) }
    }

    /// Removes a file and says nothing of the result (`unlink`): for a process about to end on a signal,
    /// where nothing is left to report to.
    static func removeQuietly(_ path: String) {
        _ = FileName.withCString(path) { system_unlink($0) }
    }

    /// Removes a directory if it is empty (`rmdir`) and says nothing of the result: a directory that
    /// still holds something, or is already gone, stays as it is.
    static func removeEmptyDirectoryQuietly(_ path: String) {
        _ = FileName.withCString(path) { system_rmdir($0) }
    }

    /// Makes `destination` a second name of `source` (`link`); false where the file system refuses it.
    static func hardLink(_ source: String, to destination: String) -> Bool {
        FileName.withCString(source) { from in FileName.withCString(destination) { system_link(from, $0) } } == 0
    }

    /// Closes a descriptor this process opened (`close`); its result says nothing a caller could act on.
    static func close(_ descriptor: Int32) {
        _ = system_close(descriptor)
    }

    /// Renames a file (replacing the destination).
    public static func move(_ source: String, to destination: String) throws(FileSystemError) {
        let moved = FileName.withCString(source) { from in FileName.withCString(destination) { system_rename(from, $0) } }
        if moved != 0 { throw .last("rename", source) }
    }

    /// A token unique across processes and threads: pid, a counter and random bits.
    ///
    /// The pid (`getpid`) and a random key (`getrandom`) are taken once per process; each token's random
    /// bits are the counter mixed with that key (SplitMix64, a bijection: distinct counters give distinct
    /// bits, unguessable without the key). Two system calls per token were a large share of a campaign's
    /// (TestAssets/Bench/README.md, "Measurements behind the code").
    public static func uniqueToken() -> String {
        let counter = tokenCounter.add(1, ordering: .relaxed).newValue
        let random = TokenKey.shared.mix(UInt64(truncatingIfNeeded: counter))
        return "\(TokenKey.shared.processID)-\(counter)-\(String(random, radix: 36))"
    }
}

/// The tokens' counter: safe to bump from any thread.
private let tokenCounter = Atomic<Int>(0)

/// What every token of this process shares: its pid and a random key, read once.
private struct TokenKey: Sendable {
    static let shared = TokenKey()
    let processID = system_getpid()
    let key = UInt64.random(in: 0...UInt64.max)

    /// SplitMix64: its finaliser over `value + key × γ` (γ its golden-ratio increment).
    func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ key &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
