@_spi(Tooling) import CarillonExtensionCore

/// Where one path is relative to another once links and `..` are resolved: for the misconfigurations
/// that are usage errors (a queue inside the container's receipts, attachments inside the container).
enum PathRelation {
    /// The absolute, link-free form of `path`; a part that does not exist yet is kept as written after
    /// its deepest existing ancestor is resolved, with `.` and `..` in it applied by name.
    static func resolved(_ path: String) -> String {
        var existing = path.isEmpty ? "." : path
        var rest: [String] = []
        while true {
            if let real = FileName.withCString(existing, { system_realpath($0) }) {
                defer { system_free(real) }
                var resolved = FileName.string(
                    fromBytes: UnsafeBufferPointer(
                        start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: system_strlen(real)))
                for name in rest.reversed() {
                    switch name {
                    case "", ".": continue
                    case "..": resolved = FileSystem.parentDirectory(of: resolved)
                    default: resolved = FileSystem.join(resolved, name)
                    }
                }
                return resolved
            }
            let parent = FileSystem.parentDirectory(of: existing)
            rest.append(FileSystem.lastComponent(existing))
            if parent == existing { return path }
            existing = parent
        }
    }

    /// Whether `path` is `directory` or inside it, once both are resolved.
    static func isSameOrInside(_ path: String, _ directory: String) -> Bool {
        FileSystem.isSameOrInside(resolved(path), resolved(directory))
    }
}
