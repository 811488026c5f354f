import CarillonTestSupport
import Foundation
import Testing

/// SPEC §8: a disk that fills, and single system calls that fail, under the real tool. A small tmpfs is
/// mounted for the full disk (as root, which CI is; cancelled, saying why, otherwise), and strace's
/// fault injection (`-e inject=SYSCALL:error=ERRNO:when=N`) fails one call at a time.
@Suite(.timeLimit(.minutes(3))) struct FullDiskAndFaultsTests {
    /// A tmpfs of `kilobytes` mounted at a fresh directory, unmounted by `remove()`. Where mounting is
    /// not possible (not root, or no permission in this sandbox) it throws ``Unavailable`` and the test
    /// is cancelled, saying why: no package would make it possible.
    final class SmallDisk {
        struct Unavailable: Error {
            var reason: String
        }

        let path: String
        private let parent: TemporaryDirectory

        init(kilobytes: Int) throws {
            guard getuid() == 0 else {
                throw Unavailable(reason: "mounting a tmpfs for the full-disk test needs root (not a missing package)")
            }
            parent = TemporaryDirectory("full-disk")
            path = parent.file("disk")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let mount = try Command.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", path])
            guard mount.status == 0 else {
                parent.remove()
                throw Unavailable(reason: "cannot mount a tmpfs here (no permission in this sandbox): \(mount.standardError)")
            }
        }

        func file(_ name: String) -> String { path + "/" + name }

        /// Fills the disk to the last byte with one file.
        func fill() throws {
            _ = try Command.run("/bin/dd", ["if=/dev/zero", "of=\(file("fill"))", "bs=4096"])
        }

        func free() throws { try FileManager.default.removeItem(atPath: file("fill")) }

        func remove() {
            _ = try? Command.run("/bin/umount", [path])
            parent.remove()
        }
    }

    @Test func aFullDiskLosesNoReceiptAndNoEvent() async throws {
        let disk: SmallDisk
        do {
            disk = try SmallDisk(kilobytes: 512)
        } catch let unavailable as SmallDisk.Unavailable {
            try Test.cancel(Comment(rawValue: unavailable.reason))
        }
        defer { disk.remove() }
        let work = TemporaryDirectory("full-disk-payloads")
        defer { work.remove() }
        let ids = try StreamsAndWaitsTests.stampedPayloads(20, in: work)
        let container = disk.file("c")
        let queue = disk.file("q")
        let stored = try await tool(["process", "--container", container, work.file("payloads")])
        #expect(stored.jsonLines.count == 20)
        #expect(stored.jsonLines.allSatisfy { $0["receipt"] as? String == "stored" })

        try disk.fill()
        // The extension on a full disk: the receipt fails, is said, and the notification goes on.
        let late = try work.write("late.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(99)))
        let full = try await tool(["process", "--container", container, late])
        #expect(full.status == 0)
        let line = try #require(full.jsonLines.first)
        #expect(line["receipt"] as? String == "failed")
        #expect(line["delivered"] as? String == "original")
        #expect((line["warnings"] as? [String])?.contains { $0.contains("No space left on device") } == true)
        // The app's drain on a full disk: nothing can be queued, so every receipt stays.
        let drain = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(drain.status == 1)
        #expect(drain.standardError.contains("No space left on device"))
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: container + "/CarillonReceipts").filter { $0.hasSuffix(".receipt") })
                .count == 20)
        // Output to a file on the full disk: exit 1 and one line, not a crash.
        let out = try await shell("\"$TOOL\" process \(Shell.quote(work.file("payloads"))) > \(Shell.quote(disk.file("out.jsonl")))")
        #expect(out.status == 1)
        #expect(out.standardError.contains("cannot write to standard output: No space left on device"))

        // Room again: everything arrives, once.
        try disk.free()
        let after = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(after.status == 0, "\(after.standardError)")
        #expect(Set(after.jsonLines.compactMap { $0["delivery_id"] as? String }) == Set(ids))
        let batches = try await tool(["batches", "--queue", queue])
        #expect(batches.status == 0)
        for id in ids { #expect(batches.standardOutput.components(separatedBy: id).count == 2) }
    }

    /// The call, its error, which occurrence fails, whether only calls on one receipt's path count (`-P`:
    /// the dynamic loader opens and reads files too, before any of ours), and the drain's exit status:
    /// 1 where the failure keeps something from being done, 0 where it only leaves a temporary file
    /// behind (the `unlink` of a published event's temporary name), which a later run removes. A drain
    /// makes five fsyncs (the counter, the queue directory, the queue file, the queue directory, the
    /// receipts directory) and one `link` (the queue file).
    static let faults: [(call: String, error: String, when: Int, onOneReceipt: Bool, status: Int32)] = [
        ("openat", "EIO", 1, true, 1), ("openat", "EMFILE", 1, true, 1), ("read", "EIO", 1, true, 1),
        ("fsync", "EIO", 1, false, 1), ("fsync", "EIO", 5, false, 1), ("link", "ENOSPC", 1, false, 1),
        ("fsync", "EIO", 3, false, 1), ("rename", "EIO", 1, false, 1), ("unlink", "EIO", 2, false, 0),
        ("getdents64", "EIO", 1, false, 1), ("flock", "ENOLCK", 1, false, 1), ("mkdir", "EACCES", 1, false, 1),
    ]

    @Test(arguments: faults)
    func oneFailedSystemCallInADrainLosesAndDoublesNothing(call: String, error: String, when: Int, onOneReceipt: Bool, status: Int32)
        async throws
    {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("fault")
        defer { work.remove() }
        let ids = try StreamsAndWaitsTests.stampedPayloads(8, in: work)
        let container = work.file("c")
        let queue = work.file("q")
        #expect(try await tool(["process", "--container", container, work.file("payloads")]).status == 0)
        let filter = onOneReceipt ? ["-P", container + "/CarillonReceipts/\(ids[3]).receipt"] : []
        let faulty = try await onOwnThread {
            try Command.run(
                "/usr/bin/strace",
                [
                    "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):error=\(error):when=\(when)",
                ] + filter + [Paths.tool, "drain", "--container", container, "--queue", queue])
        }
        #expect(!faulty.standardError.contains("Fatal error"), "\(faulty.standardError)")
        #expect(faulty.status == status, "\(call) failing made the drain exit \(faulty.status): \(faulty.standardError)")
        if status == 1 { #expect(faulty.standardError.contains(String(cString: strerror(Self.errnoValue(error))))) }
        // Whatever the failure did, a clean drain afterwards leaves every event queued exactly once.
        let clean = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(clean.status == 0, "\(clean.standardError)")
        let batches = try await tool(["batches", "--queue", queue])
        for id in ids {
            #expect(batches.standardOutput.components(separatedBy: id).count == 2, "\(id) after \(call) failed with \(error)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: container + "/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.isEmpty
        )
    }

    static func errnoValue(_ name: String) -> Int32 {
        ["EIO": EIO, "EMFILE": EMFILE, "ENOSPC": ENOSPC, "ENOLCK": ENOLCK, "EACCES": EACCES][name] ?? 0
    }

    @Test(arguments: [("fsync", 1), ("fsync", 3), ("link", 1), ("link", 2), ("write", 1), ("mkdir", 1)])
    func aFailedSystemCallInTheExtensionNeverLeavesATornReceipt(call: String, when: Int) async throws {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("fault-process")
        defer { work.remove() }
        _ = try StreamsAndWaitsTests.stampedPayloads(4, in: work)
        let container = work.file("c")
        let run = try await onOwnThread {
            try Command.run(
                "/usr/bin/strace",
                [
                    "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):error=EIO:when=\(when)",
                    Paths.tool, "process", "--container", container, work.file("payloads"),
                ])
        }
        #expect(!run.standardError.contains("Fatal error"))
        let receipts = run.jsonLines.map { $0["receipt"] as? String ?? "?" }
        // A receipt that failed says so; every stored one is whole: the drain sets nothing aside.
        #expect(receipts.allSatisfy { $0 == "stored" || $0 == "failed" })
        for line in run.jsonLines where line["receipt"] as? String == "failed" {
            #expect((line["warnings"] as? [String])?.contains { $0.contains("Input/output error") } == true)
        }
        let drain = try await tool(["drain", "--container", container, "--queue", work.file("q")])
        #expect(!drain.standardError.contains("set aside as"), "\(drain.standardError)")
        #expect(drain.jsonLines.count == receipts.filter { $0 == "stored" }.count)
    }
}
