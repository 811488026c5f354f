import CarillonExtensionCore

/// Where one path is relative to another once links and `..` are resolved: for the misconfigurations
/// that are usage errors (a queue inside the container's receipts, attachments inside the container).
enum PathRelation {
    /// The absolute, link-free form of `path`; a part that does not exist yet is kept as written after
    /// its deepest existing ancestor is resolved.
    static func resolved(_ path: String) -> String {
        var existing = path.isEmpty ? "." : path
        var rest: [String] = []
        while true {
            if let real = FileName.withCString(existing, { realpath($0, nil) }) {
                defer { free(real) }
                let base = FileName.string(fromBytes: UnsafeBufferPointer(
                    start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real)))
                return rest.reversed().reduce(base) { FileSystem.join($0, $1) }
            }
            let parent = FileSystem.parentDirectory(of: existing)
            let name = FileSystem.lastComponent(existing)
            if name != "." && !name.isEmpty { rest.append(name) }
            if parent == existing { return path }
            existing = parent
        }
    }

    /// Whether `path` is `directory` or inside it.
    static func isSameOrInside(_ path: String, _ directory: String) -> Bool {
        let inner = resolved(path), outer = resolved(directory)
        return inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }
}
