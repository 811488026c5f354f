import CarillonTestSupport
import Foundation
import Testing

/// SPEC §6b and §8: a directory option that is a file, lies under /proc, is on a read-only file system or
/// cannot be created is a usage error (64) naming the option, the path and why, before any payload runs;
/// a missing directory whose parent can be created is made. Read-only is a read-only tmpfs: the tests run
/// as root, for whom a chmod'ed directory is still writable.
@Suite(.timeLimit(.minutes(2))) struct MisconfiguredPathsTests {
    /// A read-only tmpfs mounted at a fresh directory, unmounted by `remove()`.
    final class ReadOnlyDisk {
        let path: String
        private let parent: TemporaryDirectory

        init() throws {
            parent = TemporaryDirectory("read-only-disk")
            path = parent.file("disk")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let mount = try Command.run("/bin/mount", ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", path])
            try #require(mount.status == 0, "mounting a read-only tmpfs needs root: \(mount.standardError)")
        }

        func remove() {
            _ = try? Command.run("/bin/umount", [path])
            parent.remove()
        }
    }

    /// Each misconfigured path, with the words its error must hold.
    static func cases(file: String, readOnly: String) -> [(arguments: [String], says: String)] {
        [
            (["process", "--container", file], "--container '\(file)': is a regular file, not a directory"),
            (["process", "--container", "/proc/carillon-nse"], "--container '/proc/carillon-nse': cannot be created in '/proc': "),
            (["process", "--container", readOnly], "--container '\(readOnly)': not writable: Read-only file system"),
            (["process", "--container", readOnly + "/c"], "cannot be created in '\(readOnly)': Read-only file system"),
            (["process", "--attachments", file], "--attachments '\(file)': is a regular file, not a directory"),
            (["process", "--attachments", file + "/a"], "cannot be created: '\(file)' is a regular file, not a directory"),
            (["process", "--attachments", readOnly], "--attachments '\(readOnly)': not writable: Read-only file system"),
            (["drain", "--container", file, "--queue", "/tmp/unused-queue"], "--container '\(file)': is a regular file"),
            (["drain", "--container", readOnly, "--queue", "/tmp/unused-queue"], "not writable: Read-only file system"),
            (["drain", "--container", "/tmp", "--queue", readOnly + "/q"], "--queue '\(readOnly)/q': cannot be created in"),
            (["open", "--queue", file], "--queue '\(file)': is a regular file, not a directory"),
            (["present", "--queue", readOnly], "--queue '\(readOnly)': not writable: Read-only file system"),
            (["scan", "--queue", "/proc/q"], "--queue '/proc/q': cannot be created in '/proc': "),
            (["batches", "--queue", file], "--queue '\(file)': is a regular file, not a directory"),
            (["batches", "--queue", readOnly], "--queue '\(readOnly)': not writable: Read-only file system"),
            (["upload", "--endpoint", "https://127.0.0.1:9/", "--queue", readOnly], "not writable: Read-only file system"),
            // The sent log is appended to: naming the key file would write into it.
            (
                ["upload", "--endpoint", "https://127.0.0.1:9/", "--queue", "/tmp/unused-queue", "--key-file", file, "--sent-log", file],
                "option '--sent-log' '\(file)' is the same file as '\(file)', which is also option '--key-file'"
            ),
        ]
    }

    @Test func eachMisconfiguredPathIsAUsageErrorBeforeAnyPayloadRuns() async throws {
        let disk = try ReadOnlyDisk()
        defer { disk.remove() }
        let work = TemporaryDirectory("misconfigured-paths")
        defer { work.remove() }
        let file = try work.write("a-file", "")
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        let notifications = try work.write("n.jsonl", "")
        for (arguments, says) in Self.cases(file: file, readOnly: disk.path) {
            let input = ["open", "present", "process"].contains(arguments[0]) ? [payload] : arguments[0] == "scan" ? [notifications] : []
            let result = try await onOwnThread {
                try Command.run(Paths.tool, arguments + input, environment: ["CARILLON_MOBILE_KEY": "k"])
            }
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(arguments): nothing runs")
            #expect(result.standardError.contains(says), "\(arguments): \(result.standardError)")
        }
    }

    /// Without --attachments the run's own directory goes under $TMPDIR: a $TMPDIR where it cannot be made
    /// is a usage error that says so, not one naming an option the user never typed.
    @Test func aTMPDIRWhereTheRunsDirectoryCannotBeMadeSaysSo() async throws {
        let work = TemporaryDirectory("tmpdir-proc")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        let result = try await onOwnThread {
            try Command.run(Paths.tool, ["process", payload], environment: ["TMPDIR": "/proc"])
        }
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError.contains(
                "the run's attachments directory under $TMPDIR (--attachments DIR names another) '/proc/carillon-nse-run-"),
            "\(result.standardError)")
        #expect(result.standardError.contains("cannot be created in '/proc': "), "\(result.standardError)")
    }

    @Test func aMissingDirectoryWhoseParentCanBeCreatedIsMade() async throws {
        let work = TemporaryDirectory("missing-parents")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil))
        let container = work.file("new/parents/container")
        let attachments = work.file("other/new/attachments")
        let result = try await tool(["process", "--container", container, "--attachments", attachments, payload])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.jsonLines.first?["receipt"] as? String == "stored")
        let queue = work.file("q/new")
        let drained = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(drained.status == 0 && drained.jsonLines.count == 1, "\(drained.standardError)")
    }
}
