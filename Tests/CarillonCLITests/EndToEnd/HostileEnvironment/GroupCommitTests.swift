import CarillonTestSupport
import Foundation
import Testing

/// SPEC §4 under the receipts' group commit (`ReceiptCommitGroup`): `process --jobs 8 --container`,
/// traced with strace and killed with SIGKILL at each worker's n-th `fsync` or `link` (strace's
/// `-e inject=CALL:signal=SIGKILL:when=N`, counted per thread). In every run, traced or killed:
/// - no payload is attached (its attachment renamed into place, or hard-linked from the download its
///   payloads share) before its receipt is durable: the
///   receipt's own file fsynced (by the payload's worker) before its `link` (by whichever worker led the
///   round), and a directory fsync begun after that `link` and returned successfully before the
///   attachment's rename;
/// - every printed `attached` line has its receipt on disk, whole (the drain sets nothing aside);
/// - once the same payloads are delivered again, those whose receipt is on disk are duplicates, and the
///   drain queues every delivery exactly once: none lost, none doubled, none torn.
@Suite(.timeLimit(.minutes(5))) struct GroupCommitTests {
    static let payloadCount = 24

    /// Kill points: each worker's 1st to 6th fsync (its receipt's file, then the rounds it leads) and
    /// 1st to 3rd link; nil: a run that is not killed.
    static let killPoints: [(call: String, when: Int)?] =
        [nil] + (1...6).map { ("fsync", $0) } + (1...3).map { ("link", $0) }

    @Test(arguments: killPoints)
    func noPayloadIsAttachedBeforeItsReceiptIsDurable(killedAt kill: (call: String, when: Int)?) async throws {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("group-commit")
        defer { work.remove() }
        let ids = try Self.writePayloads(in: work)
        let container = work.file("c")
        let receipts = container + "/CarillonReceipts"
        let attachments = work.file("a")
        let traceFile = work.file("trace")
        let injection = kill.map { ["-e", "inject=\($0.call):signal=SIGKILL:when=\($0.when)"] } ?? []
        let arguments =
            ["-f", "-ttt", "-T", "-y", "-qq", "-o", traceFile, "-e", "trace=fsync,link,rename"] + injection + [
                Paths.tool, "process", "--jobs", "8", "--container", container, "--attachments", attachments,
                "--ca-file", TestServer.shared.caFile, work.file("payloads"),
            ]
        let run = try await onOwnThread { try Command.run("/usr/bin/strace", arguments) }
        if kill == nil {
            #expect(run.status == 0, "\(run.standardError)")
        }

        // Durable before attached, from the trace.
        let trace = try SyscallTrace(contentsOf: traceFile)
        // Payloads that name one image share its download (SPEC §6a): one attachment may be renamed into
        // place and the others hard-linked from the shared file, each by its own payload's worker.
        let placed = trace.calls.filter { call in
            (call.name == "rename" || call.name == "link") && call.succeeded
                && call.quotedArguments.last.map { $0.hasPrefix(attachments + "/image-") } == true
        }
        if kill == nil { #expect(placed.count == Self.payloadCount) }
        for rename in placed {
            // The receipt this worker staged last before renaming its attachment: its file's fsync is the
            // worker's own; its link may be another worker's, the one that led the round.
            let staged = trace.calls.last {
                $0.thread == rename.thread && $0.name == "fsync" && $0.succeeded && $0.ended <= rename.started
                    && $0.arguments.contains("<\(receipts)/.tmp-")
            }
            guard let staged, let open = staged.arguments.firstIndex(of: "<") else {
                Issue.record("an attachment was placed with no receipt staged before it on its thread: \(rename.arguments)")
                continue
            }
            let temporary = String(staged.arguments[staged.arguments.index(after: open)...].dropLast())
            let link = trace.calls.first { $0.name == "link" && $0.succeeded && $0.quotedArguments.first == temporary }
            guard let link else {
                Issue.record("an attachment was placed but its receipt \(temporary) was never linked")
                continue
            }
            #expect(staged.ended <= link.started, "the receipt's file was not fsynced before its link: \(link.arguments)")
            let directorySynced = trace.calls.contains {
                $0.name == "fsync" && $0.succeeded && $0.arguments.hasSuffix("<\(receipts)>")
                    && $0.started >= link.ended && $0.ended <= rename.started
            }
            #expect(directorySynced, "no directory fsync after the link \(link.arguments) returned before the attachment")
        }

        // Every printed attached line has its receipt on disk.
        let present = Set(work.contents("c/CarillonReceipts").filter { $0.hasSuffix(".receipt") }.map { String($0.dropLast(8)) })
        for line in run.jsonLines where line["reason"] as? String == "attached" {
            #expect(line["receipt"] as? String == "stored")
            #expect(present.contains(line["delivery_id"] as? String ?? "?"), "attached without its receipt: \(line)")
        }
        // iOS delivers the payloads again: a receipt already on disk is a duplicate, a missing one is
        // stored now; then one drain queues each delivery exactly once, and finds nothing torn.
        let again = try await tool([
            "process", "--jobs", "8", "--container", container, "--attachments", work.file("a2"),
            "--ca-file", TestServer.shared.caFile, work.file("payloads"),
        ])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.jsonLines.count == Self.payloadCount)
        for line in again.jsonLines {
            let expected = present.contains(line["delivery_id"] as? String ?? "?") ? "duplicate" : "stored"
            #expect(line["receipt"] as? String == expected, "\(line)")
        }
        let queue = work.file("q")
        let drain = try await tool(["drain", "--container", container, "--queue", queue])
        #expect(drain.status == 0)
        #expect(!drain.standardError.contains("set aside as"), "\(drain.standardError)")
        let queued = QueueFiles.events(in: queue).filter { $0.type == "received" }.map(\.deliveryID)
        #expect(queued.count == Set(queued).count, "an event was queued twice")
        #expect(Set(queued) == Set(ids), "a receipt was lost")
    }

    /// `payloadCount` stamped payloads whose images are the test server's small PNG.
    static func writePayloads(in work: TemporaryDirectory) throws -> [String] {
        try FileManager.default.createDirectory(atPath: work.file("payloads"), withIntermediateDirectories: true)
        return try (1...payloadCount).map { number in
            let id = TestDeliveryID.text(number)
            try work.write("payloads/\(id).json", Payloads.routed(image: TestServer.shared.url("/img/png"), deliveryID: id))
            return id
        }
    }
}
