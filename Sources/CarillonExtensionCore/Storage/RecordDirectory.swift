/// A directory of small record files that is ours: the container's `CarillonReceipts/` and the app's
/// event queue. It owns the layout both share:
///
///     <dir>/              0700  a real directory (a link only where a person named it); a wider mode is tightened
///         .lock           0600  empty; flock'ed around every change that must not race
///         .tmp-*          0600  a record being written (or left by a crash: removed after an hour)
///         Quarantine/     0700  files set aside, unchanged, each with a <name>.reason line
///
/// What the records are, and what the lock guards, is the owner's (``ReceiptStore``, ``EventQueue``).
@_spi(Tooling) public struct RecordDirectory: Sendable {
    static let lockName = ".lock"
    static let quarantineName = "Quarantine"
    /// Every directory of ours, whatever the umask.
    public static let mode: CModeT = 0o700

    public let path: String
    /// Whether the directory itself may be reached through a symbolic link: yes for one a person named
    /// (the queue, as the container is); never for one inside another (`CarillonReceipts`). What is
    /// inside is never followed either way.
    let followsLink: Bool

    init(_ path: String, followsLink: Bool = false) {
        self.path = path
        self.followsLink = followsLink
    }

    var lockPath: String { FileSystem.join(path, RecordDirectory.lockName) }
    var quarantineDirectory: String { FileSystem.join(path, RecordDirectory.quarantineName) }
    var quarantine: Quarantine { Quarantine(directory: quarantineDirectory) }

    /// What is at the directory's path (not following a link).
    public func kind() throws(FileSystemError) -> FileSystem.Kind {
        try RecordDirectory.kind(of: path, followsLink: followsLink)
    }

    /// `lstat`, except that a link to a directory counts as the directory where `followsLink` allows.
    private static func kind(of path: String, followsLink: Bool) throws(FileSystemError) -> FileSystem.Kind {
        let kind = try FileSystem.kind(path)
        return kind == .symbolicLink && followsLink && FileSystem.isDirectory(path) ? .directory : kind
    }

    /// Makes sure the directory is there as a real directory of mode 0700, creating it (and missing
    /// parents) if `create` allows.
    ///
    /// - Returns: warnings for what was put right: a mode wider than 0700, tightened.
    /// - Throws: ``FileSystemError`` naming the path when it is missing (and `create` is false), not a
    ///   directory, a symbolic link, or cannot be created or tightened.
    @discardableResult
    func prepare(create: Bool = true) throws(FileSystemError) -> [String] {
        try RecordDirectory.prepare(path, create: create, followsLink: followsLink)
    }

    /// ``prepare(create:)`` for any directory of ours (the quarantine uses it too).
    static func prepare(_ path: String, create: Bool, followsLink: Bool = false) throws(FileSystemError) -> [String] {
        switch try kind(of: path, followsLink: followsLink) {
        case .missing:
            guard create else { throw FileSystemError("open", path, errno: _ENOENT) }
            try FileSystem.makeDirectory(path, mode: mode)
            return []
        case .directory:
            break
        case let other:
            throw FileSystemError("open", path, errno: _ENOTDIR, explanation: "\(other.description), not a directory")
        }
        guard let permissions = FileSystem.permissions(path) else { throw .last("inspect", path) }
        guard permissions != mode else { return [] }
        if followsLink {
            guard FileName.withCString(path, { system_chmod($0, mode) }) == 0 else { throw .last("set the mode of", path) }
        } else {
            try FileSystem.setDirectoryMode(path, mode)
        }
        let change = permissions & ~mode != 0 ? "tightened" : "set"
        return ["\(Quoting.display(path)) had mode \(String(permissions, radix: 8)); \(change) to 0700"]
    }

    /// Runs `body` holding the directory's lock, waiting until `deadline` at the most.
    public func withLock<Result>(
        until deadline: ContinuousClock.Instant, _ body: () throws(FileSystemError) -> Result
    ) throws(FileSystemError) -> Result {
        try FileLock.withExclusiveLock(lockPath, until: deadline, body)
    }

    /// The directory's entries, the directory itself never reached through a link.
    public func entries() throws(FileSystemError) -> [DirectoryEntry] {
        try DirectoryListing.entries(path, followLink: followsLink)
    }

    /// The path of an entry.
    public func path(of name: String) -> String { FileSystem.join(path, name) }

    /// Sets a file of this directory aside into its quarantine.
    ///
    /// - Returns: the record, or nil when the file was already gone.
    func setAside(_ name: String, reason: String) throws(FileSystemError) -> QuarantinedFile? {
        try quarantine.setAside(path(of: name), reason: reason)
    }
}
