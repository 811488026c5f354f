// Fixtures shared by the receipt, event-queue, drain and conformance suites (no tests of its own).
// Names are prefixed so they cannot clash with other suites' helpers in this target.

import CarillonTestSupport

@_spi(Tooling) @testable import CarillonExtensionCore

enum ReceiptsFixture {
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
