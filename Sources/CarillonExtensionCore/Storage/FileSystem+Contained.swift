extension FileSystem {
    /// The explanation of a refusal to follow a symbolic link.
    package static let linkNotFollowed = "a symbolic link, not followed"

    /// Reads the regular file at `components` below `directory` without ever leaving it: each component
    /// is opened relative to the one before (`openat`) with `O_NOFOLLOW`, so no symbolic link is followed
    /// anywhere on the way (a link is refused, naming it), a FIFO never blocks (`O_NONBLOCK`, and the
    /// type checked on the descriptor), and nothing larger than `limit` bytes is read (`EFBIG`).
    /// The components must be plain names: no `..`, `.`, empty name or `/` (the caller refuses those
    /// before anything is opened; here they are `EINVAL`).
    ///
    /// - Throws: ``FileSystemError`` naming the path as `directory/component…`.
    package static func readContained(_ components: [String], in directory: String, limit: Int) throws(FileSystemError) -> [UInt8] {
        let shown = ([directory] + components).joined(separator: "/")
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("/") }) else {
            throw FileSystemError("open", shown, errno: _EINVAL, explanation: "not a plain relative path")
        }
        var current = FileName.withCString(directory) { name in
            SystemCall.retryingInterrupts { system_open(name, _O_RDONLY | _O_CLOEXEC | _O_DIRECTORY) }
        }
        guard current >= 0 else { throw .last("open", directory) }
        defer { system_close(current) }
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            let path = ([directory] + components[...index]).joined(separator: "/")
            var info = CStat()
            let linked = FileName.withCString(component) { system_fstatat(current, $0, &info, _AT_SYMLINK_NOFOLLOW) } == 0
            if linked && Kind(mode: info.st_mode) == .symbolicLink {
                throw FileSystemError("open", path, errno: _ELOOP, explanation: linkNotFollowed)
            }
            let flags = _O_RDONLY | _O_CLOEXEC | _O_NOFOLLOW | (last ? _O_NONBLOCK : _O_DIRECTORY)
            let next = FileName.withCString(component) { name in SystemCall.retryingInterrupts { system_openat(current, name, flags) } }
            guard next >= 0 else {
                if system_errno == _ELOOP {
                    throw FileSystemError("open", path, errno: _ELOOP, explanation: linkNotFollowed)
                }
                throw .last("open", path)
            }
            system_close(current)
            current = next
        }
        var info = CStat()
        guard system_fstat(current, &info) == 0 else { throw .last("stat", shown) }
        let kind = Kind(mode: info.st_mode)
        guard kind == .regularFile else {
            throw FileSystemError("read", shown, errno: _EINVAL, explanation: "not a regular file but \(kind.description)")
        }
        let tooLarge = FileSystemError("read", shown, errno: _EFBIG, explanation: "over the \(limit)-byte limit; not read")
        if Int(info.st_size) > limit { throw tooLarge }
        do {
            return try readAll(descriptor: current, limit: limit, path: shown)
        } catch {
            throw error.errno == _EFBIG ? tooLarge : error
        }
    }
}
