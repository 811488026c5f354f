// Helpers shared by the receipt, event-queue, drain and conformance suites (no tests of its own).
// Names are prefixed so they cannot clash with other suites' helpers in this target.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@_spi(Tooling) @testable import CarillonExtensionCore

/// A fresh private directory under /tmp, removed (with everything in it) by ``remove()``.
struct ReceiptsScratch {
    let path: String

    init() {
        var template = Array("/tmp/carillon-receipts-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: \(errno)")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `path/name`.
    func at(_ name: String) -> String { FileSystem.join(path, name) }

    func remove() { ReceiptsScratch.removeTree(path) }

    static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            // Quarantine tests make unreadable files; make sure the walk can still enter.
            chmod(path, 0o700)
            for name in (try? FileSystem.contentsOfDirectory(path)) ?? [] {
                removeTree(FileSystem.join(path, name))
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

enum ReceiptsFixture {
    /// A deterministic delivery id whose last group is `n` in hex: `01937b21-0000-7000-8000-00000000002a`.
    static func id(_ n: Int) -> DeliveryID {
        let hex = String(n, radix: 16)
        return DeliveryID("01937b21-0000-7000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!
    }

    /// 2026-08-20T09:16:44.120Z, the SPEC's example time.
    static let time = Timestamp(iso8601: "2026-08-20T09:16:44.120Z")!

    /// Writes a file directly, without fsync (fast set-up; the code under test never writes this way).
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        precondition(descriptor >= 0, "open \(path): \(errno)")
        bytes.withUnsafeBytes { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    static func write(_ text: String, to path: String) { write(Array(text.utf8), to: path) }

    /// The visible names in a directory (no dotfiles), sorted.
    static func visibleNames(_ directory: String) -> [String] {
        ((try? FileSystem.contentsOfDirectory(directory)) ?? []).filter { !$0.hasPrefix(".") }
    }

    /// Sets a file's modification time `seconds` into the past.
    static func age(_ path: String, seconds: Int) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var times = [timespec(tv_sec: now.tv_sec - seconds, tv_nsec: 0), timespec(tv_sec: now.tv_sec - seconds, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
