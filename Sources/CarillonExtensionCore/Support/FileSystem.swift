#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call: the call, the path and the `errno`, as one readable message.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32

    public init(_ operation: String, _ path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The C library's text for the error number.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String { "\(operation) \(path): \(reason)" }
}

/// Thin, typed wrappers over the POSIX calls the extension needs for durable, private files.
///
/// Foundation's `FileManager` hides `fsync`, `O_EXCL`, `link` and exact modes, which the receipt and
/// attachment guarantees depend on.
public enum FileSystem {
    /// Creates `path` and any missing parents with `mode`; an existing directory is fine.
    public static func makeDirectory(_ path: String, mode: mode_t = 0o700) throws(FileSystemError) {
        if isDirectory(path) { return }
        let parent = parentDirectory(of: path)
        if parent != path && !parent.isEmpty && !isDirectory(parent) {
            try makeDirectory(parent, mode: mode)
        }
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw FileSystemError("create directory", path, errno: errno)
        }
        guard isDirectory(path) else { throw FileSystemError("create directory", path, errno: ENOTDIR) }
    }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The permission bits of a file, or nil when it does not exist.
    public static func permissions(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The size of a regular file in bytes, or nil when it cannot be read.
    public static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The directory part of a path (`"."` for a bare name).
    public static func parentDirectory(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// `directory/name`.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The names in a directory (no `.` or `..`), sorted.
    public static func contentsOfDirectory(_ path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw FileSystemError("read directory", path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Reads a whole file, refusing one larger than `limit` bytes without reading it.
    public static func readFile(_ path: String, limit: Int = .max) throws(FileSystemError) -> [UInt8] {
        let (descriptor, info) = try openForReading(path)
        defer { close(descriptor) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileSystemError("read", path, errno: EISDIR) }
        if Int(info.st_size) > limit { throw FileSystemError("read", path, errno: EFBIG) }
        return try readAll(descriptor: descriptor, limit: limit, path: path)
    }

    /// Reads an open descriptor to its end, refusing more than `limit` bytes (`EFBIG`). For pipes and
    /// special files, which have no size up front, the limit is enforced while reading.
    public static func readAll(descriptor: Int32, limit: Int, path: String) throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        try readChunks(descriptor: descriptor, path: path) { (piece) throws(FileSystemError) -> Bool in
            bytes.append(contentsOf: piece)
            if bytes.count > limit { throw FileSystemError("read", path, errno: EFBIG) }
            return true
        }
        return bytes
    }

    /// Passes a regular file's bytes to `body` in 64 KiB pieces, to the end or until `body` returns false.
    /// Anything but a regular file is refused (`EISDIR` for a directory, else `EINVAL`).
    public static func readChunks(
        ofRegularFile path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(FileSystemError) -> Bool
    ) throws(FileSystemError) {
        let (descriptor, info) = try openForReading(path)
        defer { close(descriptor) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FileSystemError("read", path, errno: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        try readChunks(descriptor: descriptor, path: path, body)
    }

    /// Reads an open descriptor in 64 KiB pieces, retrying interruptions, passing each to `body` until the
    /// end or until `body` returns false.
    public static func readChunks(
        descriptor: Int32, path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(FileSystemError) -> Bool
    ) throws(FileSystemError) {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("read", path, errno: errno)
            }
            if count == 0 { return }
            let more = try chunk.withUnsafeBufferPointer { (all) throws(FileSystemError) -> Bool in
                try body(UnsafeBufferPointer(rebasing: all[0 ..< count]))
            }
            if !more { return }
        }
    }

    /// Opens `path` read-only (close-on-exec) and `fstat`s it.
    private static func openForReading(_ path: String) throws(FileSystemError) -> (descriptor: Int32, info: stat) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open", path, errno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw FileSystemError("stat", path, errno: error)
        }
        return (descriptor, info)
    }

    /// Writes all of `bytes` to an open descriptor, retrying short writes and interruptions.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileSystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw FileSystemError("write", path, errno: errno)
            }
            offset += written
        }
    }

    /// Flushes a directory's entries to disk, so that a rename or link in it survives a crash.
    public static func syncDirectory(_ path: String) throws(FileSystemError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError("open directory", path, errno: errno) }
        defer { close(descriptor) }
        if fsync(descriptor) != 0 { throw FileSystemError("fsync directory", path, errno: errno) }
    }

    /// Creates a new file that did not exist (`O_EXCL`) with exactly `mode`, returning its descriptor.
    public static func createExclusive(_ path: String, mode: mode_t = 0o600) throws(FileSystemError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileSystemError("create", path, errno: errno) }
        // The umask may have removed bits; it can never add any, so 0600 stays 0600 or less. Set it exactly.
        fchmod(descriptor, mode)
        return descriptor
    }

    public enum PublishResult: Sendable, Equatable {
        case published
        /// A file already had the final name; it was left as it was.
        case alreadyExists
    }

    /// Durably writes `bytes` to `path` so that a crash at any instant leaves either no file there or the
    /// whole one: a temporary file in the same directory, fsync, `link` to the final name (which never
    /// replaces an existing file, so the first writer wins), unlink the temporary, fsync the directory.
    ///
    /// A caller publishing many files into one directory may pass `syncDirectory: false` and call
    /// ``syncDirectory(_:)`` once after the last: none of them is durable before that.
    public static func publishAtomically(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o600, replace: Bool = false, syncDirectory: Bool = true
    ) throws(FileSystemError) -> PublishResult {
        let directory = parentDirectory(of: path)
        let temporary = join(directory, ".tmp-\(uniqueToken())")
        let descriptor = try createExclusive(temporary, mode: mode)
        var closed = false
        defer {
            if !closed { close(descriptor) }
            unlink(temporary)
        }
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try writeAll(descriptor, buffer, path: temporary) }
        }.get()
        if fsync(descriptor) != 0 { throw FileSystemError("fsync", temporary, errno: errno) }
        close(descriptor)
        closed = true
        var result = PublishResult.published
        if replace {
            if rename(temporary, path) != 0 { throw FileSystemError("rename", path, errno: errno) }
        } else if link(temporary, path) != 0 {
            guard errno == EEXIST else { throw FileSystemError("link", path, errno: errno) }
            result = .alreadyExists
        }
        if result == .published && syncDirectory { try FileSystem.syncDirectory(directory) }
        return result
    }

    /// Removes a file; a file that is already gone is not an error.
    public static func removeFile(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0 && errno != ENOENT { throw FileSystemError("remove", path, errno: errno) }
    }

    /// Renames a file (replacing the destination).
    public static func move(_ source: String, to destination: String) throws(FileSystemError) {
        if rename(source, destination) != 0 { throw FileSystemError("rename", source, errno: errno) }
    }

    /// A token unique across processes and threads: pid, a counter and random bits.
    public static func uniqueToken() -> String {
        let counter = tokenCounter.add()
        let random = UInt64.random(in: 0...UInt64.max)
        return "\(getpid())-\(counter)-\(String(random, radix: 36))"
    }
}

private let tokenCounter = AtomicCounter()

extension FileSystem {
    /// Runs `body` while holding an exclusive `flock` on `path`, which is created empty (0600) if missing.
    ///
    /// `flock` locks belong to the open file, so the lock excludes other processes *and* other threads of
    /// this one (each call opens its own descriptor); the kernel releases it if the holder dies.
    ///
    /// - Throws: ``FileSystemError`` from `open` or `flock`, or whatever `body` throws.
    public static func withExclusiveLock<Result>(
        _ path: String, _ body: () throws(FileSystemError) -> Result
    ) throws(FileSystemError) -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600 as mode_t)
        guard descriptor >= 0 else { throw FileSystemError("open lock", path, errno: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileSystemError("lock", path, errno: errno) }
        }
        return try body()
    }
}
