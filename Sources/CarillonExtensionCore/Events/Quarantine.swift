#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that was set aside instead of being used, and why.
public struct QuarantinedFile: Sendable, Hashable {
    /// Where the file was.
    public var file: String
    /// Why it was set aside, e.g. `unknown format version 2`.
    public var reason: String
    /// Where it is now.
    public var movedTo: String

    public init(file: String, reason: String, movedTo: String) {
        self.file = file
        self.reason = reason
        self.movedTo = movedTo
    }
}

/// A directory of set-aside files: each one moved in unchanged, with a `<name>.reason` file beside it
/// holding one line that says why. Corrupt files are kept rather than deleted so that someone can
/// look at them; they never block or crash the code that found them.
struct Quarantine {
    let directory: String

    /// Moves `path` into the quarantine under its own name (or `<name>.<n>` if that is taken) and writes
    /// the reason beside it.
    ///
    /// - Returns: the record, or nil when the file is already gone (another process set it aside or used
    ///   it first).
    /// - Throws: ``FileSystemError`` when the directory cannot be made or the file cannot be moved.
    func setAside(_ path: String, reason: String) throws(FileSystemError) -> QuarantinedFile? {
        try FileSystem.makeDirectory(directory)
        let name = Quarantine.lastComponent(path)
        var destination = FileSystem.join(directory, name)
        var attempt = 0
        // Several bad files can share a name over time; keep them all. (Only one file has a given name at
        // a time, so two processes never race for the same destination with different files.)
        while FileSystem.exists(destination) || FileSystem.exists(destination + ".reason") {
            attempt += 1
            destination = FileSystem.join(directory, attempt < 1000 ? "\(name).\(attempt)" : "\(name).\(FileSystem.uniqueToken())")
        }
        if rename(path, destination) != 0 {
            if errno == ENOENT { return nil }
            throw FileSystemError("set aside", path, errno: errno)
        }
        // The move is what matters; a missing reason file only loses the explanation, which the caller
        // reports anyway.
        _ = try? FileSystem.publishAtomically(Array((reason + "\n").utf8), to: destination + ".reason", replace: true)
        return QuarantinedFile(file: path, reason: reason, movedTo: destination)
    }

    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// Temporary files (`.tmp-*`) are writes in progress; one older than ``maximumAge`` belongs to a writer
/// that crashed between creating and publishing it, and is removed.
enum StaleTemporaryFiles {
    /// An hour: far longer than any write takes.
    static let maximumAge: Int64 = 3_600_000
    static let prefix = ".tmp-"

    /// Removes the temporary file `path` if it was last modified more than ``maximumAge`` before `now`.
    ///
    /// - Returns: true when it was removed.
    static func removeIfStale(_ path: String, now: Timestamp) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let modified = Int64(info.st_mtim.tv_sec) * 1000 + Int64(info.st_mtim.tv_nsec) / 1_000_000
        guard now.millisecondsSinceEpoch - modified > maximumAge else { return false }
        return unlink(path) == 0
    }
}
