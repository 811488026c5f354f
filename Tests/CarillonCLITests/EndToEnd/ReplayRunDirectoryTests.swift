import CarillonTestSupport
import Foundation
import Testing

/// A replay of many recordings without `--attachments` keeps one directory for its images under
/// `$TMPDIR` for the whole run, emptied after each recording, and removes it at the end: nothing is
/// left behind, and every recording still gets its verdict.
@Suite(.timeLimit(.minutes(2))) struct ReplayRunDirectoryTests {
    @Test func aDirectoryOfRecordingsLeavesNothingUnderTMPDIR() throws {
        let work = TemporaryDirectory("replay-run-directory")
        defer { work.remove() }
        let (live, har) = try ReplayRoundTripTests.record(work, TestServer.shared.url("/img/png"))
        #expect(live["reason"] as? String == "attached")
        let many = work.file("many")
        let scratch = work.file("tmp")
        for path in [many, scratch] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        for index in 0..<5 { try FileManager.default.copyItem(atPath: har, toPath: many + "/r\(index).har") }
        let replayed = try Command.run(
            Paths.tool, ["replay", "--ca-file", TestServer.shared.caFile, many], environment: ["TMPDIR": scratch])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        #expect(replayed.jsonLines.count == 5)
        #expect(replayed.jsonLines.allSatisfy { $0["reason"] as? String == "attached" }, "\(replayed.standardOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch).isEmpty)
    }
}
