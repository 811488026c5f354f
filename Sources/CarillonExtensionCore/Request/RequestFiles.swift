/// Where the `@file`s a request names are read from (curl's `-d @file`, `data-binary @file`,
/// `-H @file`): beside the file that names them, and nowhere else. Request files come from strangers:
/// a path that is absolute or climbs through `..` is refused before anything is opened, and one that
/// passes through a symbolic link is refused when that link is met (no link is ever followed), naming
/// it either way.
package struct RequestFiles: Sendable {
    /// The directory of the file that names them (`.` for standard input), found only when a file is read.
    package var directory: String { file.map { FileSystem.parentDirectory(of: $0) } ?? given }
    private var given: String
    private var file: String?
    /// The most bytes one `@file` may hold.
    package var limit: Int

    package init(directory: String, limit: Int = RequestFiles.defaultLimit) {
        given = directory
        self.limit = limit
    }

    /// The files beside `path` (the file that names them).
    package init(besideFile path: String, limit: Int = RequestFiles.defaultLimit) {
        given = "."
        file = path
        self.limit = limit
    }

    /// A payload is at most 5 KiB (VoIP); a megabyte leaves room for whitespace and mistakes and keeps a
    /// stranger's file from costing memory.
    package static let defaultLimit = 1_048_576

    /// A source that refuses every file: what a reader without a directory (a fuzz check) uses.
    package static let none = RequestFiles(directory: "", limit: -1)

    /// Reads `path` (as the command wrote it) below ``directory``.
    ///
    /// - Throws: ``RequestProblem`` naming the path and why it was refused or could not be read.
    package func read(_ path: String) throws(RequestProblem) -> [UInt8] {
        let shown = "'\(Quoting.display(path))'"
        if path == "-" {
            throw RequestProblem("'-' is standard input, which only a here-document on the curl command feeds (curl … @- <<'EOF')")
        }
        guard limit >= 0 else { throw RequestProblem("\(shown): no file is read here") }
        guard !path.isEmpty else { throw RequestProblem("an empty file name") }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            throw RequestProblem("\(shown) is absolute: a request's files are read only beside it; refused, not opened")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        if components.contains("..") {
            throw RequestProblem("\(shown) climbs out through '..': a request's files are read only beside it; refused, not opened")
        }
        do {
            return try FileSystem.readContained(components, in: directory, limit: limit)
        } catch {
            if error.explanation == FileSystem.linkNotFollowed {
                throw RequestProblem(
                    "\(shown) passes through a symbolic link (\(Quoting.display(error.path))), which is never followed: refused")
            }
            throw RequestProblem("\(shown): \(error.description)")
        }
    }
}
