import CarillonTestSupport
import Foundation
import Testing

/// SPEC §8: closed standard streams, a reader that goes away, a disk that is full for standard output,
/// and locks held by a stalled process — with the real tool, real shells and real lock holders.
@Suite(.timeLimit(.minutes(3))) struct StreamsAndWaitsTests {
    static func stampedPayloads(_ count: Int, in work: TemporaryDirectory, _ subdirectory: String = "payloads") throws -> [String] {
        try FileManager.default.createDirectory(atPath: work.file(subdirectory), withIntermediateDirectories: true)
        return try (1...count).map { number in
            let id = TestDeliveryID.text(number)
            try work.write("\(subdirectory)/\(id).json", Payloads.routed(image: nil, deliveryID: id))
            return id
        }
    }

    /// Takes an exclusive flock on `path` in this process (a stalled holder, for the tool run beside it),
    /// returning the descriptor that holds it: closing it releases the lock.
    static func holdLock(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return descriptor
    }

    @Test func closedStandardStreamsNeverLandInReceipts() async throws {
        let work = TemporaryDirectory("closed-streams")
        defer { work.remove() }
        let ids = try Self.stampedPayloads(200, in: work)
        let q = Shell.quote
        // stdout and stderr closed, as a launcher may leave them: descriptors 1 and 2 must not be reused.
        let run = try await shell(
            "\"$TOOL\" process --jobs 8 --container \(q(work.file("c"))) \(q(work.file("payloads"))) >&- 2>&-; echo $?")
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
        let work = TemporaryDirectory("kill-closed")
        defer { work.remove() }
        let ids = try Self.stampedPayloads(300, in: work)
        let q = Shell.quote
        // Killed mid-run, once some receipts are stored and before all are: whatever was stored must be
        // whole (no output line inside a receipt).
        let receipts = q(work.file("c/CarillonReceipts"))
        let killed = try await shell(
            "\"$TOOL\" process --jobs 8 --container \(q(work.file("c"))) \(q(work.file("payloads"))) >&- & pid=$!; "
                + "i=0; while [ \"$(ls \(receipts) 2>/dev/null | grep -c receipt)\" -lt 20 ] && [ $i -lt 1000 ]; do i=$((i+1)); sleep 0.005; done; "
                + "kill -9 $pid; wait $pid; echo \"status $?\"")
        #expect(killed.standardOutput.contains("status 137"), "the run ended before the kill: \(killed.standardOutput)")
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(drain.status == 0, "\(drain.standardError)")
        #expect(!drain.standardError.contains("set aside as"))
        let queued = Set(drain.jsonLines.compactMap { $0["delivery_id"] as? String })
        #expect(queued.count >= 20)
        #expect(queued.isSubset(of: Set(ids)))
    }

    @Test func aFullStandardOutputEndsTheRunWithExitOneAndOneLine() async throws {
        let work = TemporaryDirectory("dev-full")
        defer { work.remove() }
        _ = try Self.stampedPayloads(5, in: work)
        let q = Shell.quote
        let full = try await shell("\"$TOOL\" process \(q(work.file("payloads"))) > /dev/full")
        #expect(full.status == 1)
        let lines = full.standardError.split(separator: "\n")
        #expect(lines.filter { $0.contains("cannot write to standard output: No space left on device") }.count == 1)
        #expect(!full.standardError.contains("Fatal error"))
        // A reader that has gone away (a pipe whose read end is closed before the tool starts): the write
        // fails with EPIPE and the run ends with exit 1 and one line, never a SIGPIPE death.
        let payloads = work.file("payloads")
        let (status, reason, stderr) = try await onOwnThread { () throws -> (Int32, Process.TerminationReason, String) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = ["process", payloads]
            let output = Pipe()
            try output.fileHandleForReading.close()
            // Standard error to a file, never a pipe (see Command.run).
            let errorPath = payloads + "/../stderr.txt"
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer { try? errors.close() }
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            process.waitUntilExit()
            let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            return (process.terminationStatus, process.terminationReason, text)
        }
        #expect(reason == .exit)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.split(separator: "\n").filter { $0.contains("cannot write to standard output: Broken pipe") }.count == 1)
        // --help and --version too.
        let help = try await shell("\"$TOOL\" --help > /dev/full; echo \"status $?\"")
        #expect(help.standardOutput.contains("status 1"))
        #expect(help.standardError.contains("carillon-nse: cannot write to standard output: No space left on device"))
    }

    @Test func aStalledLockHolderCostsTheExtensionOneSecondNotItsNotification() async throws {
        let work = TemporaryDirectory("stalled-lock")
        defer { work.remove() }
        let receipts = work.file("c/CarillonReceipts")
        try FileManager.default.createDirectory(atPath: receipts, withIntermediateDirectories: true)
        let holder = try Self.holdLock(receipts + "/.lock")
        defer { close(holder) }
        let id = TestDeliveryID.text(1)
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: id))
        let run = try await tool(["process", "--container", work.file("c"), payload])
        #expect(run.status == 0)
        let line = try #require(run.jsonLines.first)
        #expect(line["receipt"] as? String == "failed")
        #expect(
            (line["warnings"] as? [String])?.contains { $0.contains("another process holds the lock (waited ") && $0.contains(".lock") }
                == true)
        // The notification's own clock, from didReceive to delivery: the 1 s wait and little more (the
        // process's start-up on a loaded machine is outside it, and not the extension's to bound).
        let elapsed = try #require(line["elapsed_ms"] as? Double)
        #expect(elapsed >= 1000 && elapsed < 3000, "the lock wait is bounded (\(elapsed) ms)")

        // Never past time-will-expire: with it at 0.3 s the wait stops there.
        let image = try work.write(
            "img.json", Payloads.routed(image: TestServer.shared.url("/stall/headers?seconds=5"), deliveryID: TestDeliveryID.text(2)))
        let expired = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--container", work.file("c"), "--expire-after", "0.3", image,
        ])
        let expiredLine = try #require(expired.jsonLines.first)
        #expect(expiredLine["reason"] as? String == "expired")
        #expect(expiredLine["receipt"] as? String == "failed")
        #expect((expiredLine["elapsed_ms"] as? Double ?? 1e9) < 1000)
    }

    @Test func theAppsCommandsWaitABoundedTimeForAHeldQueueLock() async throws {
        let work = TemporaryDirectory("queue-lock")
        defer { work.remove() }
        _ = try Self.stampedPayloads(3, in: work)
        #expect(try await tool(["process", "--container", work.file("c"), work.file("payloads")]).status == 0)
        try FileManager.default.createDirectory(atPath: work.file("q"), withIntermediateDirectories: true)
        var holder = try Self.holdLock(work.file("q/.lock"))
        defer { if holder >= 0 { close(holder) } }
        let started = Date()
        let drain = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(drain.status == 1)
        #expect(drain.standardError.contains("another process holds the lock"))
        #expect(drain.standardError.contains("3 receipts kept for the next drain"))
        let open = try await tool(["open", "--queue", work.file("q"), work.file("payloads")])
        #expect(open.status == 1)
        #expect(open.standardError.contains("another process holds the lock"))
        #expect(open.standardError.contains("stopped: the queue's lock is held by another process"))
        #expect(
            open.standardError.split(separator: "\n").filter { $0.contains("cannot queue the event") }.count == 1, "one wait per command")
        // willPresent and the Notification Center scan wait once too, and say what was not queued.
        let present = try await tool(["present", "--queue", work.file("q"), work.file("payloads")])
        #expect(present.status == 1)
        #expect(present.standardError.contains("stopped: the queue's lock is held by another process"))
        #expect(present.jsonLines.map { $0["queued"] as? String } == ["failed"], "stopped after the first payload")
        let delivered = try work.write(
            "delivered.jsonl",
            (1...3).map {
                #"{"date":"2026-08-20T09:16:44Z","payload":\#(Payloads.routed(image: nil, deliveryID: TestDeliveryID.text($0)))}"#
            }.joined(separator: "\n"))
        let scanStarted = Date()
        let scan = try await tool(["scan", "--queue", work.file("q"), delivered])
        #expect(Date().timeIntervalSince(scanStarted) < 15)
        #expect(scan.status == 1)
        #expect(scan.standardError.contains("stopped: the queue's lock is held by another process; 3 notifications not queued"))
        #expect(scan.jsonLines.map { $0["queued"] as? String } == ["failed", "failed", "failed"])
        close(holder)
        holder = -1
        // Nothing was lost while it waited: the receipts are all still there to drain.
        let after = try await tool(["drain", "--container", work.file("c"), "--queue", work.file("q")])
        #expect(after.status == 0)
        #expect(after.jsonLines.count == 3)
    }

    @Test func sigtermDuringADownloadRemovesItsPartialFile() async throws {
        let work = TemporaryDirectory("sigterm")
        defer { work.remove() }
        let server = TestServer.shared
        let payload = try work.write(
            "p.json", Payloads.routed(image: server.url("/stall/body?seconds=30"), deliveryID: TestDeliveryID.text(1)))
        // A stale partial file from a run killed an hour ago is removed when a run starts; a fresh one is kept.
        try FileManager.default.createDirectory(atPath: work.file("att"), withIntermediateDirectories: true)
        let stale = try work.write("att/.download-1-1-old.part", "x")
        let fresh = try work.write("att/.download-1-2-new.part", "x")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: stale)
        for signal in [SIGTERM, SIGINT] {
            // On a thread of its own, so that the kill lands mid-download whatever else is running.
            let attachments = work.file("att")
            let (underWay, status, reason, left) = try await onOwnThread {
                () throws -> (Bool, Int32, Process.TerminationReason, [String]) in
                let process = Process()
                // Through python, which gives the tool SIGINT's default disposition: a child may inherit it
                // ignored (as shells start background jobs), and the tool keeps an ignored signal ignored.
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [
                    "python3", "-c",
                    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])",
                    Paths.tool, "process", "--ca-file", server.caFile, "--attachments", attachments, payload,
                ]
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                func partials() -> [String] {
                    ((try? FileManager.default.contentsOfDirectory(atPath: attachments)) ?? []).filter {
                        $0.hasSuffix(".part") && !$0.hasPrefix(".download-1-")
                    }
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
                return (underWay, process.terminationStatus, process.terminationReason, partials())
            }
            #expect(underWay, "the download is under way")
            // Ended by the signal itself, as a shell expects of a tool it interrupted.
            #expect(reason == .uncaughtSignal)
            #expect(status == signal)
            #expect(left.isEmpty, "signal \(signal) left \(left)")
        }
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }
}
