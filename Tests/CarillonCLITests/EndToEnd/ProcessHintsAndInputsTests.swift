import CarillonTestSupport
import Foundation
import Testing

/// The tool explaining itself (issue 12): hints in `warnings`, and what it says about its inputs.
@Suite(.timeLimit(.minutes(1))) struct ProcessHintsAndInputsTests {
    @Test func aLookAlikeKeyIsNamedInTheLine() async throws {
        let directory = TemporaryDirectory("hints")
        defer { directory.remove() }
        try directory.write("typo.json", #"{"aps":{"alert":"Hi","mutable_content":1},"carillon":{"image":"https://127.0.0.1/a.png"}}"#)
        let result = try await tool(["process", "--attachments", directory.file("att"), directory.file("typo.json")])
        #expect(result.status == 0)
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == "not-mutable")
        #expect(
            (line["warnings"] as? [String])?.contains(
                "aps key 'mutable_content' is not 'mutable-content': did you mean 'mutable-content'? (keys are exact)") == true, "\(line)")
    }
}

extension ProcessHintsAndInputsTests {
    /// Under a pseudo-terminal (stdout and stderr on one terminal, as a person runs it), the progress
    /// line (SPEC §6c) is cleared before each output line: what shows on each line is a JSON object or the
    /// progress, never both glued together. It says which shard, how far through the input, the rate,
    /// the images fetched, the payloads that fell back and the time left, and is redrawn a few times a
    /// second at most; with standard error a file, none of it is written.
    @Test func progressAndOutputNeverShareALine() async throws {
        let directory = TemporaryDirectory("pty")
        defer { directory.remove() }
        let server = TestServer.shared
        for index in 0..<5 {
            // Five images (one download each: the same URL would be fetched once and shared).
            try directory.write("\(index).json", Payloads.routed(image: server.url("/stall/headers?seconds=5&n=\(index)")))
        }
        let script = """
            import pty, sys, time
            # pty.spawn copies what the terminal shows to this script's standard output.
            started = time.monotonic()
            status = pty.spawn(sys.argv[1:])
            sys.stderr.write("%.3f" % (time.monotonic() - started))
            sys.exit(status >> 8)
            """
        let arguments =
            "process --ca-file \(Shell.quote(server.caFile)) --attachments \(Shell.quote(directory.file("att"))) --budget 0.4"
            + " --shard 0/1 \(Shell.quote(directory.path))"
        let result = try await shell(
            "python3 -c \(Shell.quote(script)) \"$TOOL\" \(arguments) > \(Shell.quote(directory.file("tty.out")))")
        #expect(result.status == 0, "\(result.standardError)")
        let raw = try String(contentsOfFile: directory.file("tty.out"), encoding: .utf8)
        #expect(raw.contains("progress: shard 0/1, "), "a run over a second shows its progress on a terminal: \(raw.debugDescription)")
        // What a terminal shows on each line: the text after its last carriage return.
        let shown = raw.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map { line in
            String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? "").replacingOccurrences(of: "\u{1B}[K", with: "")
        }
        #expect(shown.filter { $0.hasPrefix("{") }.count == 5, "\(shown)")
        for line in shown where !line.isEmpty && !line.hasPrefix("carillon-nse: summary: ") {
            #expect(line.hasPrefix("{\"payload\"") != line.hasPrefix("progress: "), "\(line.debugDescription)")
            #expect(!(line.contains("progress: ") && line.contains("{\"payload\"")), "\(line.debugDescription)")
        }
        let drawn = raw.components(separatedBy: "\r\u{1B}[Kprogress: ").dropFirst().map { String($0.prefix { $0 != "\r" }) }
        let seconds = Double(result.standardError) ?? 0
        #expect(!drawn.isEmpty && Double(drawn.count) <= seconds * 4 + 2, "\(drawn.count) draws in \(seconds) s: never per payload")
        let early = drawn.first { $0.contains("left") } ?? ""
        for part in ["shard 0/1", "% of 5 payloads read", " payloads at ", "/s", " images fetched", " fell back", "about ", " s left"] {
            #expect(early.contains(part), "\(part) in \(early.debugDescription) (\(drawn))")
        }
        let toFile = try await shell(
            "\"$TOOL\" \(arguments) > /dev/null 2> \(Shell.quote(directory.file("stderr")))")
        let stderr = try String(contentsOfFile: directory.file("stderr"), encoding: .utf8)
        #expect(toFile.status == 0 && !stderr.contains("progress") && !stderr.contains("\u{1B}"), "\(stderr)")
    }

    @Test func aDirectoryWithoutPayloadsSaysSoAndExitsOne() async throws {
        let directory = TemporaryDirectory("empty-input")
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("empty"), withIntermediateDirectories: true)
        let result = try await tool(["process", "--attachments", directory.file("att"), directory.file("empty")])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError == """
                carillon-nse: \(directory.file("empty")): no *.json or *.apns file in this directory (--recursive descends into subdirectories)
                carillon-nse: no payload found

                """)
    }

    @Test func recursiveDescendsInSortedOrder() async throws {
        let directory = TemporaryDirectory("recursive")
        defer { directory.remove() }
        for path in ["in/b.json", "in/a/2.json", "in/a/1.json", "in/c/x.txt", "in/.hidden/h.json"] {
            let parent = (directory.file(path) as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try directory.write(path, Payloads.routed(image: nil))
        }
        let flat = try await tool(["process", "--attachments", directory.file("att"), directory.file("in")])
        #expect(flat.status == 0)
        #expect(flat.jsonLines.map { $0["payload"] as? String } == [directory.file("in/b.json")])
        let deep = try await tool(["process", "--recursive", "--attachments", directory.file("att"), directory.file("in")])
        #expect(deep.status == 0, "\(deep.standardError)")
        #expect(deep.jsonLines.map { $0["payload"] as? String } == ["in/a/1.json", "in/a/2.json", "in/b.json"].map(directory.file))
    }

    @Test(arguments: [
        ("missing.pem", "no such file"),
        ("dir", "a directory, not a PEM file"),
        ("empty.pem", "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
        ("key.pem", "holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
    ])
    func aCAFileWithoutACertificateIsAUsageErrorBeforeAnyPayload(_ name: String, _ problem: String) async throws {
        let directory = TemporaryDirectory("ca-file")
        defer { directory.remove() }
        try directory.write("empty.pem", "")
        try directory.write("key.pem", "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n")
        try FileManager.default.createDirectory(atPath: directory.file("dir"), withIntermediateDirectories: true)
        try directory.write("p.json", Payloads.routed(image: nil))
        let result = try await tool([
            "process", "--ca-file", directory.file(name), "--attachments", directory.file("att"), directory.file("p.json"),
        ])
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty, "no payload ran")
        #expect(
            result.standardError.hasPrefix("carillon-nse process: --ca-file '\(directory.file(name))': \(problem)"),
            "\(result.standardError)")
    }
}

/// `--format text`, the summary and `--fail-on`.
@Suite(.timeLimit(.minutes(1))) struct ProcessHumanViewTests {
    static func twoPayloads(_ directory: TemporaryDirectory) throws {
        let server = TestServer.shared
        try directory.write("1-chain.json", Payloads.routed(image: server.url("/redirect/hops/1")))
        try directory.write("2-silent.json", #"{"aps":{"content-available":1}}"#)
    }

    @Test func textFormatShowsOutcomeHopsAttachmentAndWarnings() async throws {
        let directory = TemporaryDirectory("text")
        defer { directory.remove() }
        try Self.twoPayloads(directory)
        let server = TestServer.shared
        let result = try await tool([
            "process", "--format", "text", "--ca-file", server.caFile, "--attachments", directory.file("att"), directory.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let blocks = result.standardOutput.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        #expect(blocks.count == 2, "\(result.standardOutput)")
        let first = blocks[0].split(separator: "\n").map(String.init)
        #expect(first[0] == "\(directory.file("1-chain.json")): attached — png image of 11352 bytes attached")
        #expect(first[1] == "  delivered modified, receipt none")
        #expect(
            first.contains {
                $0.hasPrefix("  hop 1: 302 from 127.0.0.1:\(server.port) over HTTP/1.1, TLSv1.") && $0.contains("→ /redirect/hops/0")
                    && $0.contains(" total ")
            })
        #expect(
            first.contains {
                $0.hasPrefix(
                    "  hop 2: 200 from 127.0.0.1:\(server.port) over HTTP/1.1, connection reused or no handshake, image/png, 11352 bytes announced; "
                )
            })
        #expect(first.contains("  11352 body bytes of a 20000 ms budget, ended in phase done; png 16×12"))
        #expect(first.contains { $0.hasPrefix("  attached \(directory.file("att"))/") && $0.hasSuffix(" (png, 11352 bytes)") })
        let second = blocks[1].split(separator: "\n").map(String.init)
        #expect(second[0].hasPrefix("\(directory.file("2-silent.json")): not-mutable — "))
        #expect(second[1] == "  delivered original (not routed: the extension never runs), receipt none")
        #expect(result.jsonLines.isEmpty)
    }

    @Test func theSummaryCountsReasonsWithMedianAndP95() async throws {
        let directory = TemporaryDirectory("summary")
        defer { directory.remove() }
        try Self.twoPayloads(directory)
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("att"), directory.path,
        ])
        #expect(result.status == 0)
        let summary = try #require(result.standardError.split(separator: "\n").last.map(String.init))
        #expect(summary.hasPrefix("carillon-nse: summary: 2 payloads: 1 attached, 1 not-mutable; elapsed_ms median "), "\(summary)")
        #expect(summary.contains(", p95 "))
        // One payload: no summary.
        let one = try await tool(["process", "--attachments", directory.file("att"), directory.file("2-silent.json")])
        #expect(one.standardError.isEmpty)
    }

    @Test(
        arguments: [
            (["--fail-on", "fallback"], Int32(2)),
            (["--fail-on", "not-mutable"], 2),
            (["--fail-on", "timeout,tls"], 0),
            (["--fail-on", "attached"], 2),
            ([], 0),
        ] as [([String], Int32)])
    func failOnMakesTheStatusTwo(_ options: [String], _ status: Int32) async throws {
        let directory = TemporaryDirectory("fail-on")
        defer { directory.remove() }
        try Self.twoPayloads(directory)
        let result = try await tool(
            ["process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("att")] + options + [directory.path])
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.jsonLines.count == 2, "every payload still runs")
    }

    @Test(arguments: [
        (["--fail-on", "timeout,nope"], "option '--fail-on' needs reason codes or 'fallback', not 'nope'"),
        (["--format", "yaml"], "option '--format' needs json, text or junit, not 'yaml'"),
    ])
    func badValuesAreUsageErrors(_ options: [String], _ message: String) async throws {
        let result = try await tool(["process"] + options + ["-"])
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
