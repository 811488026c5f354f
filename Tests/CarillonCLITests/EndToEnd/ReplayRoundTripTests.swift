import CarillonTestSupport
import Foundation
import Testing

/// `process --record DIR`, then `replay --check` on what it wrote: a carillon recording replays with
/// its own connections (TLS version, cipher, chain), options and payload, so that every listener of the
/// test server, the red-team ones included, is judged offline exactly as it was live.
@Suite(.timeLimit(.minutes(2))) struct ReplayRoundTripTests {
    /// Records one download of `url` with `options` into `work/rec`: the live line and the HAR's path.
    static func record(_ work: TemporaryDirectory, _ url: String, _ options: [String] = []) throws -> ([String: Any], String) {
        let input = try work.write(
            "p.json", #"{"aps":{"alert":{"title":"Hi"},"mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let result = try Command.run(
            Paths.tool,
            ["process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "5"] + options
                + ["--record", work.file("rec"), input])
        return (try #require(result.jsonLines.first), work.file("rec/p.har"))
    }

    static func replay(_ arguments: [String]) throws -> Command.Result {
        try Command.run(Paths.tool, ["replay", "--ca-file", TestServer.shared.caFile] + arguments)
    }

    /// Each TLS listener, with the options it was recorded under: the replay takes the recorded options
    /// as its own, judges the recorded handshake and chain again, and comes to the live verdict.
    @Test(
        arguments: [
            (nil, [], "attached"), ("ats_cn_only", [], "tls"), ("ats_no_eku", [], "tls"), ("ats_ten_years", [], "tls"),
            ("ats_rsa_kex", [], "tls"), ("ats_rsa_kex", ["--no-forward-secrecy"], "attached"), ("ats_intermediate", [], "attached"),
            ("ats_tls12_ecdhe", ["--tls-minimum", "1.3"], "tls"), ("ats_tls13", [], "attached"),
        ] as [(String?, [String], String)])
    func aRecordingAgainstATLSListenerIsJudgedOfflineAsLive(listener: String?, options: [String], reason: String) throws {
        let work = TemporaryDirectory("roundtrip")
        defer { work.remove() }
        let server = TestServer.shared
        let url = listener.map { server.url("/img/png", onATSListener: $0) } ?? server.url("/img/png")
        let (live, har) = try Self.record(work, url, options)
        #expect(live["reason"] as? String == reason, "\(live["detail"] ?? "")")
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        let line = try #require(replayed.jsonLines.first)
        #expect(line["reason"] as? String == live["reason"] as? String)
        #expect(line["detail"] as? String == live["detail"] as? String)
        let replay = try #require(line["replay"] as? [String: Any])
        #expect((replay["checked"] as? [String])?.contains("ats") == true)
        // A refused handshake negotiated no version or cipher, and one refused before any certificate
        // came has no chain: only those are said to be unchecked.
        let unchecked = (replay["not_checked"] as? [[String: Any]] ?? []).compactMap { $0["why"] as? String }
        #expect(
            unchecked.allSatisfy {
                reason == "tls" && ($0.hasPrefix("TLS version and cipher: not recorded") || $0.hasPrefix("certificate chain: not recorded"))
            }, "\(unchecked)")
    }

    /// The recorded options are defaults: one given on the command line wins, and the verdict changes.
    @Test func anOptionGivenOverridesTheRecordedOne() throws {
        let work = TemporaryDirectory("roundtrip-options")
        defer { work.remove() }
        let (live, har) = try Self.record(
            work, TestServer.shared.url("/img/png", onATSListener: "ats_rsa_kex"), ["--no-forward-secrecy"])
        #expect(live["reason"] as? String == "attached")
        // Forward secrecy cannot be asked for again by an option; the TLS minimum can.
        let stricter = try Self.replay(["--check", "--tls-minimum", "1.3", har])
        #expect(stricter.status == 3)
        #expect(stricter.jsonLines.first?["reason"] as? String == "tls")
        #expect(stricter.standardError.contains("--check: reason: recorded \"attached\", now \"tls\""), "\(stricter.standardError)")
    }

    /// A leaf that has expired since: judged at an instant after its end, the recorded handshake fails.
    @Test func aLeafExpiredSinceIsTLSAtALaterInstant() throws {
        let work = TemporaryDirectory("roundtrip-expired")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url("/img/png"))
        #expect(live["reason"] as? String == "attached")
        let later = try Self.replay(["--check", "--at", "2099-01-01T00:00:00Z", har])
        #expect(later.status == 3)
        #expect(later.jsonLines.first?["reason"] as? String == "tls", "\(later.standardOutput)")
        #expect(later.standardError.contains("now \"tls\""), "\(later.standardError)")
    }

    /// The "Done when" of the recording design: every payload of the sample catalogue recorded against
    /// the test server, then each recording replayed with `--check`, comes to the same verdict and the
    /// same trace (exit 0), offline.
    @Test(.timeLimit(.minutes(3))) func everyRecordingOfTheCatalogueChecksUnchanged() async throws {
        let catalogue = try ProcessEndToEndTests.Catalogue()
        defer { catalogue.directory.remove() }
        let work = TemporaryDirectory("roundtrip-catalogue")
        defer { work.remove() }
        let groups = catalogue.groups.filter { $0 != "malformed" }
        let recorded = try Command.run(
            Paths.tool,
            [
                "process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "2",
                "--record", work.file("rec"),
            ] + groups.map { catalogue.directory.file($0) })
        let lines = recorded.jsonLines.filter { $0["recording"] is String }
        // Every payload that downloaded or shared a download (the catalogue's 19 today) has a recording.
        #expect(lines.count >= 19, "\(recorded.standardError)")
        for line in lines {
            let recording = try #require(line["recording"] as? String)
            let replayed = try Self.replay(["--check", recording])
            if (line["detail"] as? String)?.contains("cap while streaming") == true {
                withKnownIssue("a recording keeps the bytes the sink took, not the piece that crossed the cap: the replay stays under it") {
                    #expect(replayed.status == 0, "\(recording): \(replayed.standardError)")
                }
                continue
            }
            #expect(replayed.status == 0, "\(recording): \(replayed.standardError)")
        }
        // One recording edited to hold another verdict and phase: --check names each difference, exit 3.
        let edited = try #require(lines.first { $0["reason"] as? String == "attached" }?["recording"] as? String)
        let text = try String(contentsOfFile: edited, encoding: .utf8)
        let edits = text.replacingOccurrences(of: #""reason":"attached""#, with: #""reason":"too-large""#)
            .replacingOccurrences(of: #""phase":"done""#, with: #""phase":"body""#)
        try Data(edits.utf8)
            .write(to: URL(fileURLWithPath: edited))
        let changed = try Self.replay(["--check", edited])
        #expect(changed.status == 3)
        #expect(
            changed.standardError.contains("\(edited): --check: reason: recorded \"too-large\", now \"attached\""),
            "\(changed.standardError)")
        // The trace's facts too, not only the verdict's words.
        #expect(
            changed.standardError.contains("\(edited): --check: trace.phase: recorded \"body\", now \"done\""), "\(changed.standardError)")
    }

    /// `--format text`: process's block for the image, then the replay's own lines; JUnit is process's alone.
    @Test func theTextFormatIsProcesssBlockWithTheReplaysLines() throws {
        let work = TemporaryDirectory("roundtrip-text")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url("/img/png"))
        #expect(live["reason"] as? String == "attached")
        let text = try Self.replay(["--format", "text", har])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\(har): attached — png image") == true, "\(text.standardOutput)")
        #expect(lines.contains { $0.hasPrefix("  hop 1: 200 from 127.0.0.1:") }, "\(text.standardOutput)")
        #expect(lines.contains("  replay carillon (\(har), entries 0)"), "\(text.standardOutput)")
        #expect(text.jsonLines.isEmpty)
        let junit = try Self.replay(["--format", "junit", har])
        #expect(junit.status == 64)
        #expect(junit.standardError.contains("option '--format' needs"), "\(junit.standardError)")
    }
}
