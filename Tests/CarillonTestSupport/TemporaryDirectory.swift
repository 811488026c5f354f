import Foundation

/// A fresh private directory (0700, from `mkdtemp`) under the system's temporary directory, removed with
/// everything in it by ``remove()``: the one scratch directory every suite uses.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "test") {
        let base = NSTemporaryDirectory().hasSuffix("/") ? NSTemporaryDirectory() : NSTemporaryDirectory() + "/"
        var template = Array("\(base)carillon-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(errno)")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    /// The names in the directory (or a subdirectory), sorted; empty when it does not exist.
    public func contents(_ subdirectory: String = "") -> [String] {
        let directory = subdirectory.isEmpty ? path : file(subdirectory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    public func remove() { Self.removeTree(path) }

    /// Removes `path` and everything under it, never following a link; directories a test made
    /// unreadable or unwritable are opened up first so that the walk can enter them.
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            chmod(path, 0o700)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                removeTree(path + "/" + name)
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
