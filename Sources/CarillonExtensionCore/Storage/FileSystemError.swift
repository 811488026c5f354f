/// A failed file-system call: the call, the path and the `errno`, as one readable message.
///
/// Paths in the message are shown with `Quoting.display(_:)`, so a name that is not UTF-8 reads as
/// its bytes.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed (`open`, `rename`, ...).
    public var operation: String
    /// The path it was called on.
    public var path: String
    /// The C library's `errno` after the call.
    public var errno: Int32
    /// A sentence that replaces the C library's text, where the call's own words say more.
    public var explanation: String?

    /// The error of `operation` on `path` with `errno`, and optionally a sentence of its own.
    public init(_ operation: String, _ path: String, errno: Int32, explanation: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.explanation = explanation
    }

    /// The error the last system call left in `errno`.
    static func last(_ operation: String, _ path: String) -> FileSystemError {
        FileSystemError(operation, path, errno: SystemCall.lastError)
    }

    /// The same failure said of `path`: a write staged in a temporary file fails as the file it was
    /// for (`FileSystem.publishAtomically`).
    func naming(_ path: String) -> FileSystemError {
        var named = self
        named.path = path
        return named
    }

    /// Whether this is a lock's deadline passing while another process held it (`FileLock`): a
    /// command that meets it stops instead of waiting again for each thing still to do.
    public var isLockTimeout: Bool { operation == "lock" && errno == _EWOULDBLOCK }

    /// Whether the path did not exist (`ENOENT`).
    var isMissingFile: Bool { errno == _ENOENT }

    /// Whether a failed read of a record may succeed when tried again (out of descriptors or memory, an
    /// interruption, an I/O error): never a reason to set the file aside as corrupt, nor to take it as absent.
    var mayPass: Bool { [_EMFILE, _ENFILE, _ENOMEM, _EINTR, _EAGAIN, _EIO].contains(errno) }

    /// The explanation, or the C library's text for the error number.
    public var reason: String { explanation ?? String(cString: system_strerror(errno)) }

    public var description: String { "\(operation) \(Quoting.display(path)): \(reason)" }
}
