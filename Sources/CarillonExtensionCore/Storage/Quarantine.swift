/// A file that was set aside instead of being used, and why.
public struct QuarantinedFile: Sendable, Hashable {
    /// Where the file was (lossless, see `FileName`).
    public var file: String
    /// Why it was set aside, e.g. `unknown format version 2`.
    public var reason: String
    /// Where it is now.
    public var movedTo: String

    /// A file set aside from `file` to `movedTo`, for `reason`.
    public init(file: String, reason: String, movedTo: String) {
        self.file = file
        self.reason = reason
        self.movedTo = movedTo
    }
}

/// A directory of set-aside files: each one moved in unchanged, under its own name's bytes, with a
/// `<name>.reason` file beside it holding one line that says why. Corrupt files are kept rather than
/// deleted so that someone can look at them; they never block or crash the code that found them.
///
/// The quarantine is a real directory inside the record directory: one that is a symbolic link is
/// refused, so set-aside files never leave the container or the queue.
struct Quarantine {
    let directory: String

    /// Moves `path` into the quarantine under its own name (or `<name>.<n>` if that is taken) and writes
    /// the reason beside it.
    ///
    /// - Returns: the record, or nil when the file is already gone (another process set it aside or used
    ///   it first).
    /// - Throws: ``FileSystemError`` when the directory cannot be made or is not a real directory, or the
    ///   file cannot be moved.
    func setAside(_ path: String, reason: String) throws(FileSystemError) -> QuarantinedFile? {
        try setAside(path, named: FileSystem.lastComponent(path), reason: reason)
    }

    /// Writes `bytes` into the quarantine as a new file named like `path` (or `<name>.<n>`), durably,
    /// with the reason beside it: part of a file set aside while the rest stays in use.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be made, or the file written or synced.
    func keep(_ bytes: [UInt8], from path: String, reason: String) throws(FileSystemError) -> QuarantinedFile {
        _ = try RecordDirectory.prepare(directory, create: true)
        let staged = try FileSystem.stage(bytes, in: directory)
        defer { staged.discard() }
        guard var record = try setAside(staged.temporaryPath, named: FileSystem.lastComponent(path), reason: reason) else {
            throw FileSystemError("set aside", path, errno: _ENOENT)
        }
        try FileSystem.syncDirectory(directory)
        record.file = path
        return record
    }

    private func setAside(_ path: String, named name: String, reason: String) throws(FileSystemError) -> QuarantinedFile? {
        _ = try RecordDirectory.prepare(directory, create: true)
        var attempt = 0
        var destination = FileSystem.join(directory, name)
        func nextName() {
            attempt += 1
            destination = FileSystem.join(directory, attempt < 1000 ? "\(name).\(attempt)" : "\(name).\(FileSystem.uniqueToken())")
        }
        // Several bad files can share a name over time; keep them all: the move never replaces. It is a
        // `link`, then the `unlink` of the original (two drains setting the same file aside at once may
        // both keep a copy: nothing is lost); a directory, which cannot be linked, is renamed.
        moving: while true {
            if FileSystem.exists(destination + ".reason") {
                nextName()
                continue
            }
            if FileName.withCString(path, { from in FileName.withCString(destination) { system_link(from, $0) } }) == 0 {
                _ = FileName.withCString(path) { system_unlink($0) }
                break moving
            }
            switch system_errno {
            case _EEXIST:
                nextName()
            case _ENOENT:
                return nil
            case _EPERM where !FileSystem.exists(destination):
                if FileName.withCString(path, { from in FileName.withCString(destination) { system_rename(from, $0) } }) != 0 {
                    if system_errno == _ENOENT { return nil }
                    throw .last("set aside", path)
                }
                break moving
            default:
                throw .last("set aside", path)
            }
        }
        // The move is what matters; a missing reason file only loses the explanation, which the caller
        // reports anyway.
        _ = try? FileSystem.publishAtomically(Array((reason + "\n").utf8), to: destination + ".reason", replace: true)
        return QuarantinedFile(file: path, reason: reason, movedTo: destination)
    }
}
