import CarillonTestSupport
import Foundation
import Testing

/// A run without `--attachments` leaves nothing behind: its verified images live in a directory of the
/// run's own under `$TMPDIR`, removed when it ends — normally, or on SIGTERM mid-download; and a run
/// stopped by SIGINT or SIGTERM leaves no staged output (a `--bundle` being written).
@Suite(.timeLimit(.minutes(2))) struct NothingLeftBehindTests {
    /// Everything under `path`, depth first, hidden files included.
    static func everything(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
    }

    /// `process --jobs 2` over `campaign` with TMPDIR at `tmpdir`, once both downloads are under way (a
    /// partial file each, at most 10 s on); whether they were is the second value.
    static func startedMidDownload(_ campaign: String, caFile: String, tmpdir: String) throws -> (Process, Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.tool)
        process.arguments = ["process", "--ca-file", caFile, "--jobs", "2", campaign]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": tmpdir]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        func partials() -> [String] { everything(under: tmpdir).filter { $0.hasSuffix(".part") } }
        while partials().count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return (process, partials().count == 2)
    }

    static func campaign(in work: TemporaryDirectory, images: [String], copies: Int) throws -> String {
        let lines = (0..<copies).flatMap { copy in
            images.enumerated().map { index, image in
                Payloads.routed(image: image, deliveryID: TestDeliveryID.text(copy * images.count + index + 1))
            }
        }
        return try work.write("campaign.jsonl", lines.joined(separator: "\n") + "\n")
    }

    @Test(arguments: [[String](), ["--no-share"], ["--jobs", "4"], ["--format", "text"]])
    func aRunLeavesTmpdirAsItFoundIt(options: [String]) async throws {
        let work = TemporaryDirectory("leaves-nothing")
        defer { work.remove() }
        let server = TestServer.shared
        let tmpdir = work.file("tmp")
        try FileManager.default.createDirectory(atPath: tmpdir, withIntermediateDirectories: true)
        let campaign = try Self.campaign(
            in: work, images: [server.url("/img/png"), server.url("/img/jpeg"), server.url("/bad/html")], copies: 4)
        let report = work.file("report.html")
        let arguments = ["process", "--ca-file", server.caFile, "--report", report] + options + [campaign]
        let result = try await onOwnThread { try Command.run(Paths.tool, arguments, environment: ["TMPDIR": tmpdir]) }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.everything(under: tmpdir) == [])
        // The report read the images before their directory went: each shown image is embedded.
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains("data:image/png;base64,") && page.contains("data:image/jpeg;base64,"))
        if options.contains("text") {
            let attached = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("  attached ") }
            #expect(attached.count == 8)
            // No file to name: the type and bytes stay.
            #expect(attached.allSatisfy { $0.hasPrefix("  attached (png, ") || $0.hasPrefix("  attached (jpeg, ") }, "\(attached)")
            return
        }
        let lines = result.jsonLines
        #expect(lines.count == 12)
        for line in lines {
            let attachments = line["attachments"] as? [[String: Any]] ?? []
            if line["reason"] as? String == "attached" {
                #expect(attachments.count == 1)
                #expect(attachments.first?["file"] is NSNull)
                #expect(["png", "jpeg"].contains(attachments.first?["type"] as? String))
                #expect((attachments.first?["bytes"] as? Int ?? 0) > 0)
            } else {
                #expect(line["reason"] as? String == "unsupported-type" && attachments.isEmpty)
            }
        }
    }

    @Test func withAttachmentsEachPayloadKeepsItsFileAndTmpdirIsUntouched() async throws {
        let work = TemporaryDirectory("keeps-attachments")
        defer { work.remove() }
        let server = TestServer.shared
        let tmpdir = work.file("tmp")
        try FileManager.default.createDirectory(atPath: tmpdir, withIntermediateDirectories: true)
        let campaign = try Self.campaign(in: work, images: [server.url("/img/png")], copies: 3)
        let arguments = ["process", "--ca-file", server.caFile, "--attachments", work.file("att"), campaign]
        let result = try await onOwnThread { try Command.run(Paths.tool, arguments, environment: ["TMPDIR": tmpdir]) }
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.everything(under: tmpdir) == [])
        let files = result.jsonLines.compactMap { ($0["attachments"] as? [[String: Any]])?.first?["file"] as? String }
        #expect(files.count == 3 && Set(files).count == 3)
        #expect(work.contents("att").count == 3)
    }

    @Test func sigtermMidDownloadLeavesTmpdirAsItFoundIt() async throws {
        let work = TemporaryDirectory("sigterm-tmpdir")
        defer { work.remove() }
        let server = TestServer.shared
        let tmpdir = work.file("tmp")
        try FileManager.default.createDirectory(atPath: tmpdir, withIntermediateDirectories: true)
        // One image attached and kept for sharing, another stalled mid-body when the signal lands.
        let campaign = try Self.campaign(in: work, images: [server.url("/img/png"), server.url("/stall/body?seconds=30")], copies: 2)
        let (underWay, reason, left) = try await onOwnThread { () throws -> (Bool, Process.TerminationReason, [String]) in
            let (process, underWay) = try Self.startedMidDownload(campaign, caFile: server.caFile, tmpdir: tmpdir)
            kill(process.processIdentifier, SIGTERM)
            let exitDeadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < exitDeadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return (underWay, process.terminationReason, Self.everything(under: tmpdir))
        }
        #expect(underWay, "the stalled download's partial file and the kept image were never both seen")
        #expect(reason == .uncaughtSignal)
        #expect(left == [])
    }

    /// A bundle is staged from the run's start (`.tmp-*` beside its path); a signal while a download
    /// stalls removes it, and the run still ends by the signal.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalMidRunLeavesNoStagedBundle(signal: Int32) async throws {
        let work = TemporaryDirectory("signal-bundle")
        defer { work.remove() }
        let server = TestServer.shared
        let out = work.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let campaign = try Self.campaign(in: work, images: [server.url("/img/png"), server.url("/stall/body?seconds=30")], copies: 1)
        let (staged, reason, left) = try await onOwnThread { () throws -> ([String], Process.TerminationReason, [String]) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.tool)
            process.arguments = [
                "process", "--ca-file", server.caFile, "--bundle", out + "/b.bundle", "--summary", out + "/s.json", campaign,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Mid-run: the bundle staged, then a moment for the first payload (the second one stalls).
            let deadline = Date().addingTimeInterval(10)
            var staged: [String] = []
            while staged.isEmpty && Date() < deadline {
                staged = Self.everything(under: out)
                Thread.sleep(forTimeInterval: 0.01)
            }
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, signal)
            let exitDeadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < exitDeadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return (staged, process.terminationReason, Self.everything(under: out))
        }
        #expect(staged.count == 1 && staged.first?.hasPrefix(".tmp-") == true, "the bundle was never seen staged: \(staged)")
        #expect(reason == .uncaughtSignal)
        #expect(left == [], "a stopped run leaves no staged file")
    }

    /// SIGKILL leaves no chance to clean up: the killed run's directory stays, and the next run without
    /// --attachments removes it (its process is gone), leaving $TMPDIR as the two runs found it.
    @Test func theNextRunRemovesTheDirectoryOfARunKilledWithSIGKILL() async throws {
        let work = TemporaryDirectory("sigkill-tmpdir")
        defer { work.remove() }
        let server = TestServer.shared
        let tmpdir = work.file("tmp")
        try FileManager.default.createDirectory(atPath: tmpdir, withIntermediateDirectories: true)
        let campaign = try Self.campaign(in: work, images: [server.url("/img/png"), server.url("/stall/body?seconds=30")], copies: 2)
        let (underWay, leftByKill) = try await onOwnThread { () throws -> (Bool, [String]) in
            let (process, underWay) = try Self.startedMidDownload(campaign, caFile: server.caFile, tmpdir: tmpdir)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (underWay, Self.everything(under: tmpdir))
        }
        #expect(underWay, "the stalled download's partial file and the kept image were never both seen")
        #expect(leftByKill.contains { $0.hasPrefix("carillon-nse-run-") }, "SIGKILL left nothing to sweep: \(leftByKill)")
        let payload = try work.write("p.json", Payloads.routed(image: server.url("/img/png")))
        let next = try await onOwnThread {
            try Command.run(Paths.tool, ["process", "--ca-file", server.caFile, payload], environment: ["TMPDIR": tmpdir])
        }
        #expect(next.status == 0, "\(next.standardError)")
        #expect(Self.everything(under: tmpdir) == [], "the killed run's directory is still there")
    }
}
