@_spi(Tooling) import CarillonExtensionCore

/// A directory option's path, checked before any work starts (SPEC §8: a misconfigured path is a usage
/// error): ``probe(_:)`` looks at the file system, ``problem(_:access:)`` decides from what it found
/// (a pure function, tested from a table), and ``check(_:option:access:)`` is both, as a command's
/// `validate` calls it.
enum DirectoryCheck {
    /// What the command does with the directory.
    enum Access: Equatable {
        /// Creates it when missing, then writes in it: `--container` and `--attachments` of a run, the
        /// queue of `drain`, `open`, `present` and `scan`.
        case create
        /// Writes in it when it is there; a missing one is the command's to report (the queue of
        /// `batches` and `upload`, `drain`'s container).
        case writeIfPresent
    }

    /// What the probe found at a path.
    struct Probe: Equatable {
        enum Found: Equatable {
            /// A directory (a link to one included).
            case directory
            /// Something that is not a directory, in ``FileSystem/Kind``'s words: "a regular file".
            case other(String)
            /// Nothing; `ancestor` is the nearest one that exists, and `ancestorIs` what it is when it
            /// is not a directory.
            case missing(ancestor: String, ancestorIs: String?)
        }

        var found: Found
        /// Why no file can be created in the directory (for a missing path, in its ancestor); nil when
        /// one can.
        var cannotWrite: String?
    }

    /// Why the path will not do, or nil when it will.
    static func problem(_ probe: Probe, access: Access) -> String? {
        switch probe.found {
        case .directory:
            return probe.cannotWrite.map { "not writable: \($0)" }
        case .other(let kind):
            return "is \(kind), not a directory"
        case .missing(let ancestor, let ancestorIs):
            guard access == .create else { return nil }
            if let ancestorIs { return "cannot be created: '\(Quoting.display(ancestor))' is \(ancestorIs), not a directory" }
            return probe.cannotWrite.map { "cannot be created in '\(Quoting.display(ancestor))': \($0)" }
        }
    }

    /// Looks at `path` (following links) and, for a missing one, at its nearest existing ancestor; tries
    /// to create a file (removed at once) in the directory found.
    static func probe(_ path: String) -> Probe {
        if FileSystem.isDirectory(path) { return Probe(found: .directory, cannotWrite: cannotWrite(in: path)) }
        if let kind = try? FileSystem.kind(path), kind != .missing {
            return Probe(found: .other(kind == .symbolicLink ? "a symbolic link to no directory" : kind.description), cannotWrite: nil)
        }
        var ancestor = path
        while true {
            let parent = FileSystem.parentDirectory(of: ancestor)
            guard parent != ancestor else { break }
            ancestor = parent
            if FileSystem.isDirectory(ancestor) {
                return Probe(found: .missing(ancestor: ancestor, ancestorIs: nil), cannotWrite: cannotWrite(in: ancestor))
            }
            if let kind = try? FileSystem.kind(ancestor), kind != .missing {
                return Probe(found: .missing(ancestor: ancestor, ancestorIs: kind.description), cannotWrite: nil)
            }
        }
        return Probe(found: .missing(ancestor: ancestor, ancestorIs: nil), cannotWrite: cannotWrite(in: ancestor))
    }

    /// A usage error naming the option, the path and why, unless the path will do.
    static func check(_ path: String, option: String, access: Access) throws(UsageError) {
        if let problem = problem(probe(path), access: access) {
            throw UsageError(message: "\(option) '\(Quoting.display(path))': \(problem)")
        }
    }

    private static func cannotWrite(in directory: String) -> String? {
        do throws(FileSystemError) {
            try FileSystem.checkCanCreateFile(in: directory)
            return nil
        } catch {
            return error.reason
        }
    }
}
