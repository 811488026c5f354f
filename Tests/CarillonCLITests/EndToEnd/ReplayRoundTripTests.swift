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

    /// Replays with no `--ca-file`: a recording holds the extra trust its run had (SPEC §9, round five).
    static func replay(_ arguments: [String]) throws -> Command.Result {
        try Command.run(Paths.tool, ["replay"] + arguments)
    }

    /// The extra trust the live run had (`--ca-file`'s certificates) is in the recording: a replay with
    /// no `--ca-file` judges the chain under it, says so, and comes to the live verdict. A recording
    /// without it (as round four wrote them) is `tls` until the replay's own `--ca-file` adds the trust.
    @Test func theExtraTrustTheRunHadIsRecordedAndUsed() throws {
        let work = TemporaryDirectory("roundtrip-trust")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url("/img/png"))
        #expect(live["reason"] as? String == "attached")
        let log = try #require(try ProcessRecordTests.har(har)["log"] as? [String: Any])
        let options = try #require((log["_carillon"] as? [String: Any])?["options"] as? [String: Any])
        let trust = try #require((options["trust"] as? [String: Any])?["certs"] as? [String])
        #expect(trust.count == 1)
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        let notes = (replayed.jsonLines.first?["replay"] as? [String: Any])?["notes"] as? [String] ?? []
        #expect(
            notes.contains { $0.hasPrefix("certificate chains were judged with the extra trust the recording was made with") }, "\(notes)")
        // Without the recorded trust, only the replay's own --ca-file adds it.
        let text = try String(contentsOfFile: har, encoding: .utf8)
        let stripped = work.file("stripped.har")
        let start = try #require(text.range(of: #","trust":{"#))
        let end = try #require(text.range(of: "]}", range: start.upperBound..<text.endIndex))
        try Data((String(text[..<start.lowerBound]) + String(text[end.upperBound...])).utf8).write(to: URL(fileURLWithPath: stripped))
        let untrusted = try Self.replay([stripped])
        #expect(untrusted.jsonLines.first?["reason"] as? String == "tls")
        #expect((untrusted.jsonLines.first?["detail"] as? String)?.contains("unable to get local issuer certificate") == true)
        let added = try Self.replay(["--ca-file", TestServer.shared.caFile, "--check", stripped])
        #expect(added.status == 0, "\(added.standardError)")
    }

    /// An app's App Transport Security exceptions (`--app`) are part of what the verdict needed: recorded
    /// as `ats_exceptions`, they judge the replay with no option, and an explicit `--tls-minimum` still
    /// wins over them, as live.
    @Test func theAppsExceptionsAreRecorded() async throws {
        let work = TemporaryDirectory("roundtrip-app")
        defer { work.remove() }
        let app = try #require(try await onOwnThread { try GeneratedApps.get().app("ats-tls11").forms["ipa"] })
        let (live, har) = try Self.record(work, TestServer.shared.url("/img/png", onATSListener: "ats_tls11"), ["--app", app])
        #expect(live["reason"] as? String == "attached", "\(live["detail"] ?? "")")
        let log = try #require(try ProcessRecordTests.har(har)["log"] as? [String: Any])
        let options = try #require((log["_carillon"] as? [String: Any])?["options"] as? [String: Any])
        let exceptions = try #require(options["ats_exceptions"] as? [[String: Any]])
        #expect(exceptions.first { $0["domain"] as? String == "127.0.0.1" }?["tls_minimum"] as? String == "1.1", "\(exceptions)")
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        #expect(try Self.replay(["--tls-minimum", "1.2", har]).jsonLines.first?["reason"] as? String == "tls")
    }

    /// The warning an app's insecure-HTTP exception gets (it changes nothing: the helper downloads over
    /// HTTPS only) is decided by the core from the configuration the download ran under: a recording
    /// made with `--app` holds the exception, and its replay, with no `--app`, says the same warning,
    /// so that `--check` of the unchanged recording exits 0.
    @Test func anInsecureHTTPExceptionsWarningReplaysAsLive() async throws {
        let work = TemporaryDirectory("roundtrip-insecure")
        defer { work.remove() }
        let app = try #require(try await onOwnThread { try GeneratedApps.get().app("insecure-http-exception").forms["ipa"] })
        let (live, har) = try Self.record(work, TestServer.shared.url("/redirect/to-http"), ["--app", app])
        #expect(live["reason"] as? String == "insecure-url", "\(live["detail"] ?? "")")
        let said = { (line: [String: Any]?) in
            (line?["warnings"] as? [String] ?? []).filter { $0.contains("NSExceptionAllowsInsecureHTTPLoads") }
        }
        #expect(said(live).count == 1, "\(live["warnings"] ?? "")")
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        #expect(said(replayed.jsonLines.first) == said(live))
    }

    /// A connection kept from an earlier payload's download (one after the other, or under `--jobs`)
    /// is recorded with the handshake it was opened with: every recording names a connection with its
    /// chain (`opened_earlier` when another payload opened it), and a replay judges that chain, so that
    /// at an instant after the leaf's end a reused one is `tls`, as a fresh handshake would be.
    @Test(arguments: ["1", "2"])
    func aReusedConnectionCarriesTheChainItWasOpenedWith(jobs: String) throws {
        let work = TemporaryDirectory("roundtrip-reused")
        defer { work.remove() }
        let server = TestServer.shared
        let names = ["p1", "p2", "p3", "p4"]
        let inputs = try zip(names, ["/img/png", "/img/gif", "/img/jpeg", "/img/tiny-png"]).map { name, path in
            try work.write(
                "\(name).json", #"{"aps":{"alert":{"title":"Hi"},"mutable-content":1},"carillon":{"image":"\#(server.url(path))"}}"#)
        }
        let run = try Command.run(
            Paths.tool,
            [
                "process", "--jobs", jobs, "--ca-file", server.caFile, "--attachments", work.file("attachments"), "--record",
                work.file("rec"),
            ]
                + inputs)
        #expect(run.jsonLines.map { $0["reason"] as? String } == Array(repeating: "attached", count: 4), "\(run.standardError)")
        var reused: [String] = []
        for name in names {
            let har = work.file("rec/\(name).har")
            let log = try #require(try ProcessRecordTests.har(har)["log"] as? [String: Any])
            let connections = try #require((log["_carillon"] as? [String: Any])?["connections"] as? [[String: Any]])
            #expect(connections.count == 1, "\(name)")
            #expect((((connections.first?["chain"] as? [String: Any])?["certs"]) as? [String])?.isEmpty == false, "\(name)")
            #expect(try ProcessRecordTests.entries(har).first?["connection"] as? String == "c1", "\(name)")
            if connections.first?["opened_earlier"] as? Bool == true { reused.append(har) }
            let replayed = try Self.replay(["--check", har])
            #expect(replayed.status == 0, "\(name): \(replayed.standardError)")
        }
        // One after the other, every payload after the first reuses the first's connection.
        if jobs == "1" { #expect(reused.count == 3) }
        let later = try Self.replay(["--at", "2099-01-01T00:00:00Z", try #require(reused.first)])
        #expect(later.jsonLines.first?["reason"] as? String == "tls", "\(later.standardOutput)")
        #expect((later.jsonLines.first?["detail"] as? String)?.contains("certificate has expired") == true)
    }

    /// Time is a verdict: a recording's own times held against the budget and time-will-expire, recorded
    /// or given. The image's head came after 1.5 s: under the recorded 5 s budget it attaches (and
    /// `--check` agrees); under `--budget 0.5` it is `timeout` while waiting for the head, and under
    /// `--expire-after 0.5` `expired`, each with the note that the times are the capture network's.
    @Test func recordedTimeIsHeldAgainstTheBudgetAndTimeWillExpire() throws {
        let work = TemporaryDirectory("roundtrip-time")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url("/late/headers?seconds=1.5"))
        #expect(live["reason"] as? String == "attached", "\(live["detail"] ?? "")")
        #expect(try Self.replay(["--check", har]).status == 0)
        for (options, reason, words) in [
            (
                ["--budget", "0.5"], "timeout",
                "the download's 500 ms time budget ran out, 500 ms in all, while waiting for the response head"
            ),
            (
                ["--expire-after", "0.5"], "expired",
                "time-will-expire arrived before the image was attached, while waiting for the response head"
            ),
            (["--expire-after", "0.5", "--budget", "0.4"], "timeout", "the download's 400 ms time budget ran out"),
        ] {
            let replayed = try Self.replay(options + [har])
            let line = try #require(replayed.jsonLines.first)
            #expect(line["reason"] as? String == reason, "\(options)")
            #expect((line["detail"] as? String)?.hasPrefix(words) == true, "\(line["detail"] ?? "")")
            #expect((line["trace"] as? [String: Any])?["phase"] as? String == "waiting")
            let notes = (line["replay"] as? [String: Any])?["notes"] as? [String] ?? []
            #expect(notes.contains("times are the capture network's"), "\(notes)")
        }
    }

    /// Time-will-expire, the most common extension failure, recorded: the verdict is delivered when it
    /// comes, while the download it cancelled is still returning, and the recording waits for that
    /// download, so it holds the entry (a stalled head, or a body stalled part-way) and `--check` comes
    /// to the live `expired` with the same phase.
    @Test(arguments: ["/stall/headers?seconds=3", "/stall/body?seconds=3"])
    func anExpiredDownloadIsRecordedAndReplaysAsLive(route: String) throws {
        let work = TemporaryDirectory("roundtrip-expire")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url(route), ["--expire-after", "1"])
        #expect(live["reason"] as? String == "expired", "\(live["detail"] ?? "")")
        #expect(try ProcessRecordTests.entries(har).isEmpty == false)
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        let line = try #require(replayed.jsonLines.first)
        #expect(line["reason"] as? String == "expired")
        #expect(line["detail"] as? String == live["detail"] as? String)
    }

    /// A body kept beside the recording (`bodies/`, 0600) is the attachment as it is: a second name of
    /// the same file, not a copy written again, and the recording keeps it; a body file of another mode
    /// is copied into an attachment of its own (0600), as any download is written.
    @Test func aBodyKeptBesideTheRecordingIsLinkedNotCopied() throws {
        let work = TemporaryDirectory("roundtrip-link")
        defer { work.remove() }
        let (live, har) = try Self.record(work, TestServer.shared.url("/img/png"), ["--record-inline", "1000"])
        #expect(live["reason"] as? String == "attached")
        let bodies = work.file("rec/bodies")
        let body = try #require(try FileManager.default.contentsOfDirectory(atPath: bodies).first { !$0.hasSuffix(".wire") })
        for (mode, linked) in [(0o600, true), (0o644, false)] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: bodies + "/" + body)
            let kept = work.file("kept-\(mode)")
            let replayed = try Self.replay(["--attachments", kept, "--check", har])
            #expect(replayed.status == 0, "\(replayed.standardError)")
            let file = try #require((replayed.jsonLines.first?["attachments"] as? [[String: Any]])?.first?["file"] as? String)
            let attachment = try FileManager.default.attributesOfItem(atPath: file)
            let original = try FileManager.default.attributesOfItem(atPath: bodies + "/" + body)
            #expect((attachment[.systemFileNumber] as? Int == original[.systemFileNumber] as? Int) == linked, "\(mode)")
            #expect(attachment[.posixPermissions] as? Int == 0o600)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(contentsOf: URL(fileURLWithPath: bodies + "/" + body)))
        }
        // Without --attachments the run's files go, and the recording's body stays.
        #expect(try Self.replay([har]).status == 0)
        #expect(FileManager.default.fileExists(atPath: bodies + "/" + body))
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

    /// What the server sent, fully: a body that stopped at the cap (streamed, or a compression bomb)
    /// keeps the piece that crossed it, and a body whose bytes on the wire are not the decoded ones
    /// keeps them too (`_carillon.wire`: a coding, chunk framing, a body libcurl could not decode). The
    /// replay reaches the live verdict with the same trace facts, wire byte counts included.
    @Test(arguments: [
        ("/enc/gzip-bomb", "too-large", true), ("/enc/bad-gzip", "network", true), ("/size/n-chunked?bytes=5000", "attached", true),
        ("/bad/truncated-body", "network", false), ("/size/cap-plus-1-chunked", "too-large", true), ("/enc/br", "attached", true),
        ("/size/eof?bytes=10485761", "too-large", false), ("/bad/chunking", "network", true),
        // Under a small cap the over-cap body is kept inline, the piece that passed the cap included.
        ("/size/n-chunked?bytes=300000 --max-bytes 100000", "too-large", true),
    ])
    func aBodyAsTheServerSentItReplaysAsLive(route: String, reason: String, wireKept: Bool) throws {
        let work = TemporaryDirectory("roundtrip-wire")
        defer { work.remove() }
        let words = route.split(separator: " ").map(String.init)
        let (live, har) = try Self.record(work, TestServer.shared.url(words[0]), Array(words.dropFirst()))
        #expect(live["reason"] as? String == reason, "\(live["detail"] ?? "")")
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        let line = try #require(replayed.jsonLines.first)
        #expect(line["reason"] as? String == reason)
        #expect(line["detail"] as? String == live["detail"] as? String)
        let liveTrace = try #require(live["trace"] as? [String: Any])
        let replayTrace = try #require(line["trace"] as? [String: Any])
        let liveHop = try #require((liveTrace["hops"] as? [[String: Any]])?.last)
        let replayHop = try #require((replayTrace["hops"] as? [[String: Any]])?.last)
        for fact in ["wire_bytes", "decoded_bytes"] { #expect(replayHop[fact] as? Int == liveHop[fact] as? Int, "\(fact)") }
        #expect(replayTrace["body_bytes"] as? Int == liveTrace["body_bytes"] as? Int)
        let entry = try #require(try ProcessRecordTests.entries(har).last)
        let carillon = try #require(entry["_carillon"] as? [String: Any])
        let wire = try ProcessRecordTests.wireBytes(carillon, directory: work.file("rec"))
        #expect((wire != nil) == wireKept, "\(carillon["wire"] ?? "nil")")
        if let wire, route.contains("chunk") {
            // HTTP/1.1 chunk framing is in the bytes libcurl received: a hexadecimal size and CR LF first.
            let firstLine = wire.prefix { $0 != 0x0D }
            #expect(!firstLine.isEmpty && firstLine.allSatisfy { Array("0123456789abcdefABCDEF".utf8).contains($0) })
            #expect(Array(wire.dropFirst(firstLine.count).prefix(2)) == [0x0D, 0x0A])
        } else if let wire {
            // Without chunking, the bytes received are the bytes libcurl counts for the trace.
            #expect(wire.count == liveHop["wire_bytes"] as? Int)
        }
    }

    /// Over HTTP/2 (nginx): libcurl's received data is the streams' DATA payload, HTTP/2's framing
    /// already taken off, so a gzip body's wire bytes are the gzip stream itself and are the count the
    /// trace gives; an identity body has none kept. Both replay to the live verdict.
    @Test(arguments: [("/gz/sample.png", true), ("/sample.png", false)])
    func anHTTP2RecordingKeepsTheDataItReceived(path: String, wireKept: Bool) async throws {
        let nginx = try await onOwnThread { try NginxServer.shared() }
        let work = TemporaryDirectory("roundtrip-h2")
        defer { work.remove() }
        let (live, har) = try Self.record(work, nginx.url(path))
        #expect(live["reason"] as? String == "attached", "\(live["detail"] ?? "")")
        let hop = try #require(((live["trace"] as? [String: Any])?["hops"] as? [[String: Any]])?.last)
        #expect(hop["http_version"] as? String == "2")
        let replayed = try Self.replay(["--check", har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        // The request as sent, names lowercased by HTTP/2, is the extension's own: no difference found.
        let replay = try #require(replayed.jsonLines.first?["replay"] as? [String: Any])
        #expect((replay["request_differs"] as? [Any])?.isEmpty == true, "\(replay)")
        let entry = try #require(try ProcessRecordTests.entries(har).last)
        let carillon = try #require(entry["_carillon"] as? [String: Any])
        let wire = try ProcessRecordTests.wireBytes(carillon, directory: work.file("rec"))
        #expect((wire != nil) == wireKept)
        if let wire {
            #expect(wire.prefix(2) == [0x1F, 0x8B])
            #expect(wire.count == hop["wire_bytes"] as? Int)
        }
        // libcurl shows the HTTP/2 request in HTTP/1.1's form: Host (sent as :authority) as written, the
        // other fields lowercased, as HTTP/2 sends them.
        let sent = try #require((entry["request"] as? [String: Any])?["headers"] as? [[String: String]])
        #expect(sent.map { $0["name"] ?? "" } == ["Host", "user-agent", "accept", "accept-language", "accept-encoding"])
        #expect(sent.last?["value"] == "gzip, deflate, br")
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
