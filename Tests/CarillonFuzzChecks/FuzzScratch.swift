@_spi(Tooling) import CarillonExtensionCore
import Foundation
import Synchronization

/// A per-process scratch directory for the checks that need files, removed at exit. Safe to use from
/// concurrent test cases: every name it hands out is unique in the process.
public enum FuzzScratch {
    private static let counter = Atomic<Int>(0)

    /// The scratch directory (under `$TMPDIR`), made on first use.
    public static let directory: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/carillon-fuzz-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { fatalError("cannot make a scratch directory under \(base)") }
        atexit { FuzzScratch.remove(FuzzScratch.directory) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// A name not handed out before in this process.
    public static func uniqueName(_ label: String) -> String {
        "\(label)-\(counter.add(1, ordering: .relaxed).newValue)"
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// A new, empty directory inside the scratch directory.
    public static func freshDirectory(_ label: String) -> String {
        let path = directory + "/" + uniqueName(label)
        mkdir(path, 0o700)
        return path
    }

    /// Writes `bytes` to `path` (created or truncated, 0600); false when it cannot.
    public static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Removes a file or directory tree, without following symbolic links. Plain `unlink`/`rmdir` rather
    /// than `FileManager.removeItem`, whose extra look-ups per file were a twentieth of a fuzz target's time.
    public static func remove(_ path: String) {
        // A file or a link goes at once; a directory (EISDIR) is emptied first.
        guard unlink(path) != 0, errno == EISDIR || errno == EPERM, let directory = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names { remove(path + "/" + name) }
        rmdir(path)
    }
}
