import CarillonTestSupport
import Foundation
import Testing

/// Issue 21: when the queue's counter cannot be saved, the error names `.sequence`, the file that was
/// not saved, not the temporary file it was being written in (whose random name means nothing). One
/// system call at a time fails under strace's fault injection, as in ``FullDiskAndFaultsTests``.
@Suite(.timeLimit(.minutes(2))) struct CounterFaultsTests {
    /// The first `write`, `fsync` and `rename` of `open` on a new queue are the counter's (staged, then
    /// renamed over `.sequence`), before any event file is written.
    @Test(arguments: [
        ("write", "ENOSPC", "No space left on device"), ("fsync", "EIO", "Input/output error"), ("rename", "EIO", "Input/output error"),
    ])
    func aCounterThatCannotBeSavedIsNamed(call: String, error: String, says: String) async throws {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("counter-fault")
        defer { work.remove() }
        let payload = try work.write("p.json", Payloads.routed(image: nil, deliveryID: TestDeliveryID.text(3)))
        let queue = work.file("q")
        let run = try await onOwnThread {
            try Command.run(
                "/usr/bin/strace",
                [
                    "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e", "inject=\(call):error=\(error):when=1", Paths.tool, "open",
                    "--queue", queue, payload,
                ])
        }
        #expect(run.status == 1)
        #expect(run.standardError.contains("cannot queue the event: \(call) \(queue)/.sequence: \(says)"), "\(run.standardError)")
        #expect(!run.standardError.contains(".tmp-"), "\(run.standardError)")
    }
}
