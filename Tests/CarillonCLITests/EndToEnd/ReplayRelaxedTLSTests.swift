import CarillonTestSupport
import Foundation
import Testing

/// A handshake refused for its TLS protocol or cipher suite is recorded with what the server offers
/// and answers to a request with those rules relaxed: `replay` under the recorded options comes to the
/// live refusal (`--check` exit 0), and under `--tls-minimum` or `--no-forward-secrecy` to the verdict a
/// live `process` with that option gets from the same listener.
@Suite(.timeLimit(.minutes(2))) struct ReplayRelaxedTLSTests {
    static func process(_ work: TemporaryDirectory, _ input: String, _ options: [String]) throws -> [String: Any] {
        let result = try Command.run(
            Paths.tool,
            ["process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("attachments"), "--budget", "5"] + options
                + [input])
        return try #require(result.jsonLines.first, "\(result.standardError)")
    }

    static func trace(_ line: [String: Any]) -> String {
        let trace = line["trace"] as? [String: Any] ?? [:]
        let hops = (trace["hops"] as? [[String: Any]] ?? []).map { hop in
            let tls = hop["tls"] as? [String: Any]
            return "\(hop["url"] ?? "") \(hop["status"] ?? "") \(tls?["version"] ?? "-") \(tls?["cipher"] ?? "-") \(hop["remote"] ?? "")"
        }
        return "\(trace["phase"] ?? "") \(trace["body_bytes"] ?? "") \(hops)"
    }

    @Test(
        arguments: [
            ("ats_tls11", ["--tls-minimum", "1.1"], "attached"), ("ats_tls11", ["--tls-minimum", "1.0"], "attached"),
            ("ats_tls11", ["--no-forward-secrecy"], "tls"), ("ats_rsa_kex", ["--no-forward-secrecy"], "attached"),
            ("ats_rsa_kex", ["--tls-minimum", "1.1"], "tls"), ("ats_ffdhe", ["--no-forward-secrecy"], "tls"),
        ] as [(String, [String], String)])
    func aReplayUnderAnOverrideGivesTheLiveVerdictUnderIt(listener: String, options: [String], reason: String) throws {
        try Self.compare(TestServer.shared.url("/img/png", onATSListener: listener), options, reason, answeredBy: [1])
    }

    /// A chain: the refused handshake is a redirect's target (the live first hop stays the answer), or
    /// the relaxed request itself redirects (its next hop is the relaxed one, on the same connection).
    @Test func aRefusedRedirectTargetAndARelaxedRedirectReplayAsLive() throws {
        let server = TestServer.shared
        let target = server.url("/img/png", onATSListener: "ats_tls11")
        let location = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try Self.compare(
            server.url("/redirect/to?status=302&location=\(location)"), ["--tls-minimum", "1.1"], "attached", answeredBy: [0, 2])
        try Self.compare(
            server.url("/redirect/relative", onATSListener: "ats_tls11"), ["--tls-minimum", "1.1"], "attached", answeredBy: [1, 2])
    }

    /// Records `url` under the defaults (refused), checks the recording, then compares a replay with
    /// `options` to a live run with them: reason, detail, trace; `answeredBy` the entries the replay used
    /// when the offer passes.
    static func compare(_ url: String, _ options: [String], _ reason: String, answeredBy: [Int]) throws {
        let work = TemporaryDirectory("relaxed-tls")
        defer { work.remove() }
        let input = try work.write("p.json", #"{"aps":{"alert":{"title":"Hi"},"mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let recorded = try Self.process(work, input, ["--record", work.file("rec")])
        #expect(recorded["reason"] as? String == "tls")
        // The live verdict is the refusal alone: the relaxed request is the recording's, not the trace's.
        let liveHops = ((recorded["trace"] as? [String: Any])?["hops"] as? [[String: Any]]) ?? []
        #expect(liveHops.last?["status"] is NSNull)
        #expect(liveHops.filter { $0["status"] is NSNull }.count == 1)
        let har = work.file("rec/p.har")
        let check = try ReplayRoundTripTests.replay(["--check", har])
        #expect(check.status == 0, "\(check.standardError)")

        let live = try Self.process(work, input, options)
        #expect(live["reason"] as? String == reason)
        let replayed = try ReplayRoundTripTests.replay(options + [har])
        #expect(replayed.status == 0, "\(replayed.standardError)")
        let line = try #require(replayed.jsonLines.first)
        #expect(line["reason"] as? String == live["reason"] as? String)
        #expect(line["detail"] as? String == live["detail"] as? String)
        #expect(Self.trace(line) == Self.trace(live))
        // The refused connection is judged from the offer: nothing is left unchecked for it.
        let replay = try #require(line["replay"] as? [String: Any])
        #expect((replay["not_checked"] as? [Any])?.isEmpty == true, "\(replay)")
        // The entry that answered: the relaxed one when the offer passed, else the refused one.
        #expect(replay["entries"] as? [Int] == (reason == "attached" ? answeredBy : Array(0..<liveHops.count)), "\(replay)")
    }

    /// The HAR's shape: the refused connection names the relaxed one, whose entries are marked; a
    /// recording without them (made before the relaxed request existed) is `undetermined` under the
    /// looser option, and still the recorded refusal under its own.
    @Test func withoutTheRelaxedAnswerALooserOptionIsUndetermined() throws {
        let work = TemporaryDirectory("relaxed-tls-old")
        defer { work.remove() }
        let url = TestServer.shared.url("/img/png", onATSListener: "ats_tls11")
        let input = try work.write("p.json", #"{"aps":{"alert":{"title":"Hi"},"mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        _ = try Self.process(work, input, ["--record", work.file("rec")])
        let har = work.file("rec/p.har")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: har))) as? [String: Any])
        var log = try #require(document["log"] as? [String: Any])
        var carillon = try #require(log["_carillon"] as? [String: Any])
        let entries = try #require(log["entries"] as? [[String: Any]])
        let connections = try #require(carillon["connections"] as? [[String: Any]])
        #expect(entries.map { ($0["_carillon"] as? [String: Any])?["relaxed_tls"] as? Bool } == [nil, true])
        #expect(entries.map { $0["connection"] as? String } == ["c1", "r1"])
        #expect(connections.map { $0["offered"] as? String } == ["r1", nil])
        #expect(connections.map { $0["relaxed_tls"] as? Bool } == [nil, true])
        #expect((connections[1]["tls"] as? [String: Any])?["version"] as? String == "TLSv1.1")
        #expect((connections[1]["tls"] as? [String: Any])?["group"] as? String == "X25519")

        log["entries"] = [entries[0]]
        carillon["connections"] = [connections[0].filter { $0.key != "offered" }]
        log["_carillon"] = carillon
        document["log"] = log
        let old = work.file("old.har")
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: old))
        let check = try ReplayRoundTripTests.replay(["--check", old])
        #expect(check.status == 0, "\(check.standardError)")
        let looser = try ReplayRoundTripTests.replay(["--tls-minimum", "1.1", old])
        let line = try #require(looser.jsonLines.first)
        #expect(line["reason"] as? String == "undetermined")
        #expect((line["detail"] as? String)?.contains("no answer from the server with those rules relaxed") == true, "\(line)")
    }
}
