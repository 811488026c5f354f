import CarillonTestSupport
import Foundation
import Testing

/// SPEC §8: closed standard streams, a reader that goes away, a disk that is full for standard output,
/// and locks held by a stalled process — with the real tool, real shells and real lock holders.
@Suite(.timeLimit(.minutes(3))) struct StreamsAndWaitsTests {
    static func stampedPayloads(_ count: Int, in work: TemporaryDirectory, _ subdirectory: String = "payloads") throws -> [String] {
        try FileManager.default.createDirectory(atPath: work.file(subdirectory), withIntermediateDirectories: true)
        return try (1...count).map { number in
            let id = Payloads.deliveryID(number)
            try work.write("\(subdirectory)/\(id).json", Payloads.routed(image: nil, deliveryID: id))
            return id
        }
    }

    @Test func closedStandardStreamsNeverLandInReceipts() async throws {
        let work = try TemporaryDirectory("closed-streams")
        defer { work.remove() }
        let ids = try Self.stampedPayloads(200, in: work)
        let q = Shell.quote
        // stdout and stderr closed, as a launcher may leave them: descriptors 1 and 2 must not be reused.
        let run = try await shell("\"$TOOL\" process --jobs 8 --container \(q(work.file("c"))) \(q(work.file("payloads"))) >&- 2>&-; echo $?")
        #expect(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 0, "\(drain.standardError)")
        #expect(Set(drain.jsonLines.compactMap { $0["delivery_id"] as? String }) == Set(ids))
        #expect(drain.standardError.contains("200 queued, 0 already queued, 0 set aside, 0 failed"))
        // Closed standard input too: the tool still reads its files.
        let stdinClosed = try await shell("\"$TOOL\" batches --queue \(q(work.file("q"))) <&-")
        #expect(stdinClosed.status == 0)
        #expect(stdinClosed.standardOutput.split(separator: "\n").count == 2)
    }

    @Test func aProcessKilledWithStandardOutputClosedLosesNoReceipt() async throws {
        let work = try TemporaryDirectory("kill-closed")
        defer { work.remove() }
        let ids = try Self.stampedPayloads(300, in: work)
        let q = Shell.quote
        // Killed mid-run: whatever was stored must be whole (no output line inside a receipt).
        _ = try await shell(
            "\"$TOOL\" process --jobs 8 --container \(q(work.file("c"))) \(q(work.file("payloads"))) >&- & pid=$!; sleep 0.15; kill -9 $pid; wait $pid")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 0, "\(drain.standardError)")
        #expect(!drain.standardError.contains("set aside as"))
        let queued = Set(drain.jsonLines.compactMap { $0["delivery_id"] as? String })
        #expect(queued.isSubset(of: Set(ids)))
    }

    @Test func aFullStandardOutputEndsTheRunWithExitOneAndOneLine() async throws {
        let work = try TemporaryDirectory("dev-full")
        defer { work.remove() }
        _ = try Self.stampedPayloads(5, in: work)
        let q = Shell.quote
        let full = try await shell("\"$TOOL\" process \(q(work.file("payloads"))) > /dev/full")
        #expect(full.status == 1)
        let lines = full.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains("cannot write to standard output: No space left on device") }.count == 1)
        #expect(!full.standardError.contains("Fatal error"))
        // A reader that has gone away (`true` reads nothing and exits while the tool starts): the write
        // fails with EPIPE and the run ends with exit 1 and one line, never a SIGPIPE death (status 141).
        let gone = try await shell("( \"$TOOL\" process \(q(work.file("payloads"))); echo \"status $?\" >&2 ) | true")
        #expect(gone.standardError.contains("status 1"), "\(gone.standardError)")
        #expect(gone.standardError.contains("cannot write to standard output: Broken pipe"))
    }

    @Test func aStalledLockHolderCostsTheExtensionOneSecondNotItsNotification() async throws {
        let work = try TemporaryDirectory("stalled-lock")
        defer { work.remove() }
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [receipts + "/.lock", "sleep", "30"]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        try await Task.sleep(for: .seconds(0.2))
        let id = Payloads.deliveryID(1)
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id))
        let started = Date()
        let run = try await tool(["process", "--container", work.file("c"), payload])
        let took = Date().timeIntervalSince(started)
        #expect(run.status == 0)
        let line = try #require(run.jsonLines.first)
        #expect(line["receipt"] as? String == "failed")
        #expect((line["warnings"] as? [String])?.contains { $0.contains("another process holds the lock") && $0.contains(".lock") } == true)
        #expect(took < 10, "the lock wait is bounded (took \(took) s)")

        // Never past time-will-expire: with it at 0.3 s the wait stops there.
        let image = try work.write("img.json", Payloads.routed(image: TestServer.shared.url("/stall/headers?seconds=5"), deliveryID: Payloads.deliveryID(2)))
        let expired = try await tool(["process", "--ca-file", TestServer.shared.caFile, "--container", work.file("c"), "--expire-after", "0.3", image])
        let expiredLine = try #require(expired.jsonLines.first)
        #expect(expiredLine["reason"] as? String == "expired")
        #expect(expiredLine["receipt"] as? String == "failed")
        #expect((expiredLine["elapsed_ms"] as? Double ?? 1e9) < 1000)
    }

    @Test func theAppsCommandsWaitABoundedTimeForAHeldQueueLock() async throws {
        let work = try TemporaryDirectory("queue-lock")
        defer { work.remove() }
        _ = try Self.stampedPayloads(3, in: work)
        #expect(try await tool(["process", "--container", work.file("c"), work.file("payloads")]).status == 0)
        try FileManager.default.createDirectory(atPath: work.file("q"), withIntermediateDirectories: true)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [work.file("q/.lock"), "sleep", "30"]
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        try await Task.sleep(for: .seconds(0.2))
        let started = Date()
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(drain.status == 1)
        #expect(drain.standardError.contains("another process holds the lock"))
        #expect(drain.standardError.contains("receipt kept"))
        let open = try await tool(["open", "--queue", work.file("q"), work.file("payloads")])
        #expect(open.status == 1)
        #expect(open.standardError.contains("another process holds the lock"))
        holder.terminate()
        holder.waitUntilExit()
        // Nothing was lost while it waited: the receipts are all still there to drain.
        let after = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(after.status == 0)
        #expect(after.jsonLines.count == 3)
    }

    @Test func sigtermDuringADownloadRemovesItsPartialFile() async throws {
        let work = try TemporaryDirectory("sigterm")
        defer { work.remove() }
        let server = TestServer.shared
        let payload = try work.write("p.json", Payloads.routed(image: server.url("/stall/body?seconds=30"), deliveryID: Payloads.deliveryID(1)))
        // A stale partial file from a run killed an hour ago is removed when a run starts; a fresh one is kept.
        try FileManager.default.createDirectory(atPath: work.file("att"), withIntermediateDirectories: true)
        let stale = try work.write("att/.download-1-1-old.part", "x")
        let fresh = try work.write("att/.download-1-2-new.part", "x")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale)
        for signal in [SIGTERM, SIGINT] {
            // On a thread of its own, so that the kill lands mid-download whatever else is running.
            let attachments = work.file("att")
            let (underWay, status, left) = try await onOwnThread { () throws -> (Bool, Int32, [String]) in
                let process = Process()
                // Through python, which gives the tool SIGINT's default disposition: a child may inherit it
                // ignored (as shells start background jobs), and the tool keeps an ignored signal ignored.
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "python3", "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
                    Paths.tool, "process", "--ca-file", server.caFile, "--attachments", attachments, payload,
                ]
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                func partials() -> [String] {
                    ((try? FileManager.default.contentsOfDirectory(atPath: attachments)) ?? []).filter { $0.hasSuffix(".part") && !$0.hasPrefix(".download-1-") }
                }
                let deadline = Date().addingTimeInterval(10)
                while partials().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
                let underWay = partials().count == 1
                kill(process.processIdentifier, signal)
                // Bounded: a tool that ignored the signal would hold this thread for its whole 20 s budget.
                let exitDeadline = Date().addingTimeInterval(5)
                while process.isRunning && Date() < exitDeadline { Thread.sleep(forTimeInterval: 0.01) }
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                return (underWay, process.terminationStatus, partials())
            }
            #expect(underWay, "the download is under way")
            #expect(status == 128 + signal)
            #expect(left.isEmpty, "signal \(signal) left \(left)")
        }
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
