import CarillonTestSupport
import Foundation
import Testing

/// The built `carillon-nse replay` on HAR files: each exporter's shape, redirects across entries stored
/// out of order, a 304 from a cache, status 0 with `_error`, the cap from a head and from base64, and
/// no socket opened.
@Suite(.timeLimit(.minutes(2))) struct ReplayEndToEndTests {
    static func replay(_ arguments: [String], input: Data? = nil) throws -> Command.Result {
        try Command.run(Paths.tool, ["replay"] + arguments, input: input)
    }

    static func fixture(_ name: String) -> String { Paths.testAssets("HAR/" + name) }

    /// Writes a HAR of `entries` (JSON text) to a file and returns its path.
    static func har(_ directory: TemporaryDirectory, _ name: String, creator: String = "test", entries: [String]) throws -> String {
        let path = directory.file(name)
        let text =
            #"{"log":{"version":"1.2","creator":{"name":"\#(creator)","version":"1"},"entries":[\#(entries.joined(separator: ","))]}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func entry(_ url: String, _ started: String, status: Int, headers: String = "[]", content: String) -> String {
        #"{"startedDateTime":"\#(started)","request":{"method":"GET","url":"\#(url)","httpVersion":"HTTP/1.1","headers":[]},"response":{"status":\#(status),"httpVersion":"HTTP/1.1","headers":\#(headers),"content":\#(content)},"timings":{"send":0,"wait":1,"receive":1}}"#
    }

    static var pngBase64: String {
        (try? Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Images/sample.png"))))?.base64EncodedString() ?? ""
    }

    /// Every exporter's fixture: the reason of each image line, and words of its detail.
    @Test(arguments: [
        ("chrome.har", ["attached", "attached", "undetermined"], "net::ERR_CERT_DATE_INVALID"),
        ("chrome-sanitized.har", ["attached"], "png image"),
        // A 304 to the browser's conditional request, with no full answer in the file: what the server
        // would send the extension's unconditional request is unknown (round five; was http-status 304).
        ("chrome-304.har", ["undetermined"], #"is a 304 answering a conditional request (if-none-match: "v1")"#),
        ("firefox.har", ["undetermined"], "'Response bodies are not included.'"),
        ("safari.har", ["attached"], "png image"),
        ("httptoolkit.har", ["undetermined", "attached"], "HTTP Toolkit leaves bodies over 40 KiB out of HARs"),
        ("proxypin.har", ["undetermined"], "ProxyPin writes image bytes as Latin-1 characters"),
        ("polly.har", ["undetermined"], "encoding 'hex'"),
        ("mitmproxy.zhar", ["attached"], "jpeg image of 380 bytes"),
    ])
    func replaysEachExportersFile(file: String, reasons: [String], words: String) throws {
        let run = try Self.replay([Self.fixture(file)])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.jsonLines
        #expect(lines.map { $0["reason"] as? String } == reasons)
        #expect(lines.contains { ($0["detail"] as? String)?.contains(words) == true }, "\(run.standardOutput)")
        for line in lines {
            let replay = try #require(line["replay"] as? [String: Any])
            #expect(replay["source"] as? String == "har")
            #expect((replay["not_checked"] as? [[String: Any]])?.contains { $0["check"] as? String == "ats" } == true)
        }
    }

    @Test func proxyPinReadsWithLatin1BodiesWhenAsked() throws {
        let run = try Self.replay(["--latin1-bodies", Self.fixture("proxypin.har")])
        #expect(run.jsonLines.first?["reason"] as? String == "attached", "\(run.standardOutput)")
    }

    @Test func aCacheHitAndAProxyAreNoted() throws {
        let chrome = try Self.replay(["--url", "https://img.example.com/push/a.png", Self.fixture("chrome.har")])
        let notes = try #require((chrome.jsonLines.first?["replay"] as? [String: Any])?["notes"] as? [String])
        #expect(notes.contains("entry 0 came from the browser's cache (disk)"))
        let differs = try #require((chrome.jsonLines.first?["replay"] as? [String: Any])?["request_differs"] as? [[String: Any]])
        #expect(differs.first?["header"] as? String == "accept")
        #expect(differs.first?["varies"] as? Bool == true)
        let mitm = try Self.replay([Self.fixture("mitmproxy.zhar")])
        let mitmNotes = try #require((mitm.jsonLines.first?["replay"] as? [String: Any])?["notes"] as? [String])
        #expect(mitmNotes.contains { $0.hasPrefix("captured through mitmproxy: its TLS and HTTP version were the proxy's") })
    }

    /// The extension's redirect rules, not the browser's: the target is found among later entries, stored
    /// anywhere in the file; an http Location is refused; a missing target is undetermined.
    @Test func followsRedirectsByTheExtensionsRules() throws {
        let directory = TemporaryDirectory("replay")
        let image = #"{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}"#
        let empty = #"{"mimeType":"text/html","size":0}"#
        let stored = try Self.har(
            directory, "redirects.har",
            entries: [
                Self.entry("https://cdn.example/b.png", "2026-12-02T10:00:02.000Z", status: 200, content: image),
                Self.entry("https://cdn.example/b.png", "2026-12-02T09:00:00.000Z", status: 404, content: empty),
                Self.entry(
                    "https://a.example/a", "2026-12-02T10:00:01.000Z", status: 302,
                    headers: #"[{"name":"Location","value":"https://cdn.example/b.png"}]"#, content: empty),
                Self.entry(
                    "https://a.example/insecure", "2026-12-02T10:00:01.000Z", status: 301,
                    headers: #"[{"name":"Location","value":"http://cdn.example/b.png"}]"#, content: empty),
                Self.entry(
                    "https://a.example/lost", "2026-12-02T10:00:01.000Z", status: 302,
                    headers: #"[{"name":"Location","value":"/nowhere.png"}]"#, content: empty),
            ])
        for (url, reason, words) in [
            ("https://a.example/a", "attached", "png image"),
            ("https://a.example/insecure", "insecure-url", "redirect 1"),
            ("https://a.example/lost", "undetermined", "redirect target not in the HAR: 'https://a.example/nowhere.png'"),
        ] {
            let run = try Self.replay(["--url", url, stored])
            let line = try #require(run.jsonLines.first)
            #expect(line["reason"] as? String == reason, "\(run.standardOutput)")
            #expect((line["detail"] as? String)?.contains(words) == true, "\(line["detail"] ?? "")")
        }
        let chain = try Self.replay(["--url", "https://a.example/a", stored])
        #expect((chain.jsonLines.first?["replay"] as? [String: Any])?["entries"] as? [Int] == [2, 0])
    }

    /// The cap: announced by the head (a body that is not even there), and a base64 text too long for it.
    @Test func refusesOverTheCapFromTheHeadAndFromTheBase64() throws {
        let directory = TemporaryDirectory("replay")
        let text = String(repeating: "A", count: 4000)
        let path = try Self.har(
            directory, "cap.har",
            entries: [
                Self.entry(
                    "https://a.example/head.png", "2026-12-02T10:00:00.000Z", status: 200,
                    headers: #"[{"name":"Content-Length","value":"50000"},{"name":"Content-Type","value":"image/png"}]"#,
                    content: #"{"mimeType":"image/png","size":50000}"#),
                Self.entry(
                    "https://a.example/body.png", "2026-12-02T10:00:01.000Z", status: 200,
                    content: #"{"mimeType":"image/png","text":"\#(text)","encoding":"base64"}"#),
            ])
        let run = try Self.replay(["--max-bytes", "1000", path])
        #expect(run.jsonLines.map { $0["reason"] as? String } == ["too-large", "too-large"], "\(run.standardOutput)")
    }

    @Test func zstdIsTheContentEncodingVerdictAndGzipTextIsNotDecodedAgain() throws {
        let directory = TemporaryDirectory("replay")
        let image = #"{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}"#
        let path = try Self.har(
            directory, "codings.har",
            entries: [
                Self.entry(
                    "https://a.example/z.png", "2026-12-02T10:00:00.000Z", status: 200,
                    headers: #"[{"name":"Content-Encoding","value":"zstd"}]"#, content: image),
                Self.entry(
                    "https://a.example/g.png", "2026-12-02T10:00:01.000Z", status: 200,
                    headers: #"[{"name":"Content-Encoding","value":"gzip"}]"#, content: image),
            ])
        let run = try Self.replay([path])
        #expect(run.jsonLines.map { $0["reason"] as? String } == ["content-encoding", "attached"], "\(run.standardOutput)")
    }

    /// `--payload` routes as `process` does: a payload that is not routed, or names no image the
    /// extension would fetch, is its own line (exit 0) with no entry looked for; a routed one is
    /// replayed from its image's entry.
    @Test(arguments: [
        (#"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"https://img.example.com/push/a.png"}}"#, "attached"),
        (#"{"aps":{"alert":"Hi"},"carillon":{"image":"https://elsewhere.example/x.png"}}"#, "not-mutable"),
        (#"{"aps":{"badge":1,"mutable-content":1},"carillon":{"image":"https://elsewhere.example/x.png"}}"#, "no-alert"),
        (#"{"aps":{"alert":"Hi","mutable-content":1}}"#, "no-image"),
        (#"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"http://img.example.com/push/a.png"}}"#, "insecure-url"),
    ])
    func theDevicesPayloadRoutesAsProcessDoes(payload: String, reason: String) throws {
        let directory = TemporaryDirectory("replay-payload")
        defer { directory.remove() }
        let path = directory.file("push.json")
        try Data(payload.utf8).write(to: URL(fileURLWithPath: path))
        let run = try Self.replay(["--payload", path, Self.fixture("chrome.har")])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        let line = try #require(run.jsonLines.first)
        #expect(line["reason"] as? String == reason, "\(line["detail"] ?? "")")
        let replay = try #require(line["replay"] as? [String: Any])
        #expect((replay["entries"] as? [Int])?.isEmpty == (reason != "attached"))
    }

    /// The whole class routes as `process` does: a `--payload` file that is not a payload (not JSON,
    /// not an object) is process's `invalid-payload` line, the same words on standard error, exit 1.
    @Test(arguments: ["{\"aps\":", "[1,2]", "\"text\""])
    func aDevicePayloadThatIsNotOneIsItsInvalidPayloadLine(payload: String) throws {
        let directory = TemporaryDirectory("replay-invalid-payload")
        defer { directory.remove() }
        let path = try directory.write("push.json", payload)
        let processed = try Command.run(Paths.tool, ["process", path])
        let run = try Self.replay(["--payload", path, Self.fixture("chrome.har")])
        #expect(run.status == 1 && processed.status == 1)
        let line = try #require(run.jsonLines.first)
        #expect(run.jsonLines.count == 1)
        #expect(line["reason"] as? String == "invalid-payload")
        #expect(line["payload"] as? String == path)
        #expect(line["detail"] as? String == processed.jsonLines.first?["detail"] as? String)
        #expect(run.standardError == processed.standardError, "\(run.standardError)")
        let text = try Self.replay(["--format", "text", "--payload", path, Self.fixture("chrome.har")])
        #expect(text.standardOutput.hasPrefix("\(path): invalid-payload — "), "\(text.standardOutput)")
    }

    /// A foreign HAR's durations, summed, are held against the budget: a 25 s wait is `timeout` under
    /// the default 20 s, during the wait for the head, and attaches under `--budget 30`.
    @Test func aLongWaitInABrowsersCaptureIsATimeout() throws {
        let directory = TemporaryDirectory("replay-time")
        defer { directory.remove() }
        let entry =
            #"{"startedDateTime":"2026-12-02T10:00:00.000Z","request":{"method":"GET","url":"https://img.example.com/slow.png","httpVersion":"h2","headers":[]},"#
            + #""response":{"status":200,"httpVersion":"h2","headers":[{"name":"content-type","value":"image/png"}],"#
            + #""content":{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}},"#
            + #""timings":{"blocked":1,"dns":2,"connect":30,"ssl":20,"send":0.2,"wait":25000,"receive":3},"_resourceType":"image"}"#
        let path = try Self.har(directory, "slow.har", creator: "WebInspector", entries: [entry])
        let slow = try #require(try Self.replay([path]).jsonLines.first)
        #expect(slow["reason"] as? String == "timeout")
        #expect(
            (slow["detail"] as? String)?.hasPrefix("the download's 20000 ms time budget ran out, 20000 ms in all, while waiting") == true)
        #expect(((slow["replay"] as? [String: Any])?["notes"] as? [String])?.contains("times are the capture network's") == true)
        let patient = try #require(try Self.replay(["--budget", "30", path]).jsonLines.first)
        #expect(patient["reason"] as? String == "attached", "\(patient["detail"] ?? "")")
    }

    /// A page capture: one line per distinct image URL (signed-URL dates aside), whose notes speak of
    /// its own entries only and name the other entries of its URL, with their answers when they
    /// differ; an entry the reader set aside is listed, never a line's note.
    @Test func eachImageURLIsOneLineWithNotesOfItsOwn() throws {
        let directory = TemporaryDirectory("replay-page")
        defer { directory.remove() }
        let image = #"{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}"#
        let png = #"[{"name":"Content-Type","value":"image/png"}]"#
        let path = try Self.har(
            directory, "page.har",
            entries: [
                Self.entry(
                    "https://a.example/hero.png", "2026-12-02T10:00:00.000Z", status: 500, headers: png,
                    content: #"{"mimeType":"image/png","size":0}"#),
                Self.entry("https://a.example/hero.png", "2026-12-02T10:00:01.000Z", status: 200, headers: png, content: image),
                Self.entry(
                    "https://a.example/logo.png", "2026-12-02T10:00:02.000Z", status: 200, headers: png,
                    content: #"{"mimeType":"image/png","text":"\#(Self.pngBase64)"}"#),
                "7",
                Self.entry(
                    "https://a.example/hero.png?X-Amz-Date=20261202T100000Z", "2026-12-02T10:00:03.000Z", status: 200, headers: png,
                    content: image),
            ])
        let run = try Self.replay([path])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.jsonLines
        #expect(lines.map { $0["payload"] as? String } == ["\(path)#0", "\(path)#2"])
        let notes = lines.map { ($0["replay"] as? [String: Any])?["notes"] as? [String] ?? [] }
        #expect(
            notes[0].contains(
                "the HAR has 3 entries for this URL, which answered differently: entry 1 (200) was replayed; entry 0 answered 500, entry 4 answered 200"
            ), "\(notes[0])")
        #expect(!notes[0].contains { $0.contains("entry 2") || $0.contains("entry 3") }, "\(notes[0])")
        #expect(notes[1].contains { $0.hasPrefix("entry 2 ") && $0.contains("older Chrome") }, "\(notes[1])")
        #expect(!notes[1].contains { $0.contains("entry 0") || $0.contains("entry 1") || $0.contains("entry 3") }, "\(notes[1])")
        let list = try Self.replay(["--list", path])
        #expect(list.jsonLines.map { $0["index"] as? Int } == [0, 1, 2, 3, 4])
        #expect(list.jsonLines[3]["set_aside"] as? String == "it is a number, not an object")
    }

    @Test func listsEntriesAndRefusesWhatIsNotAHAR() throws {
        let list = try Self.replay(["--list", Self.fixture("chrome.har")])
        #expect(list.status == 0)
        #expect(list.jsonLines.map { $0["index"] as? Int } == [0, 1, 2])
        #expect(list.jsonLines.first?["http_version"] as? String == "2")
        #expect(list.jsonLines.first?["from_cache"] as? String == "disk")
        let directory = TemporaryDirectory("replay")
        let bad = directory.file("bad.har")
        try Data(#"{"log":{"version":"2.0","entries":[]}}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try Self.replay([bad])
        #expect(refused.status == 1)
        #expect(refused.standardError == "carillon-nse: \(bad): HAR version '2.0' is not supported: this reader reads major version 1\n")
        let missing = try Self.replay(["--url", "https://img.example.com/push/a.png?v=2", Self.fixture("chrome.har")])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("nearest: entry 0 ('https://img.example.com/push/a.png')"))
        #expect(try Self.replay(["--entry", "x", Self.fixture("chrome.har")]).status == 64)
        #expect(try Self.replay(["--url", "https://a", "--entry", "1", Self.fixture("chrome.har")]).status == 64)
        #expect(try Self.replay(["--fail-on", "undetermined", Self.fixture("firefox.har")]).status == 2)
    }

    /// `--check` against a carillon recording's verdict: the same verdict is exit 0, another is exit 3
    /// naming the difference; at another instant or cap the verdict is judged again.
    @Test func checksTheRecordedVerdict() throws {
        let directory = TemporaryDirectory("replay")
        let url = "https://img.example.com/r.png"
        let payload =
            #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(url)","delivery_id":"0193a4f0-0000-7000-8000-000000000001"}}"#
        let entry = Self.entry(
            url, "2026-12-02T10:00:00.000Z", status: 200, headers: #"[{"name":"Content-Type","value":"image/png"}]"#,
            content: #"{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}"#)
        func recording(_ reason: String, _ detail: String) throws -> String {
            let text =
                #"{"log":{"version":"1.2","creator":{"name":"carillon-nse","version":"0.1.0"},"entries":[\#(entry)],"_carillon":{"format":1,"payload":\#(payload),"verdict":{"reason":"\#(reason)","detail":"\#(detail)","warnings":[]}}}}"#
            let path = directory.file("\(reason).har")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let same = try Self.replay(["--check", try recording("attached", "png image of 461 bytes attached")])
        #expect(same.status == 0, "\(same.standardError)")
        #expect((same.jsonLines.first?["replay"] as? [String: Any])?["source"] as? String == "carillon")
        let changed = try Self.replay(["--check", try recording("too-large", "was too large")])
        #expect(changed.status == 3)
        #expect(changed.standardError.contains("--check: reason: recorded \"too-large\", now \"attached\""), "\(changed.standardError)")
        let smaller = try Self.replay(["--check", "--max-bytes", "100", try recording("attached", "png image of 461 bytes attached")])
        #expect(smaller.status == 3)
        #expect(smaller.jsonLines.first?["reason"] as? String == "too-large")
    }

    /// `--chain`: a chain fetched from the live server (as `openssl s_client -showcerts` prints it) is
    /// judged at the recorded instant, and at one after the leaf expired (`--at`), offline.
    @Test func judgesASuppliedChainAtTheRecordedInstantAndLater() throws {
        let server = TestServer.shared
        let directory = TemporaryDirectory("replay")
        let fetched = try Command.run(
            "/usr/bin/openssl", ["s_client", "-showcerts", "-servername", "localhost", "-connect", "127.0.0.1:\(server.port)"],
            input: Data())
        let chain = directory.file("chain.pem")
        try Data(fetched.standardOutput.utf8).write(to: URL(fileURLWithPath: chain))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let path = try Self.har(
            directory, "chain.har",
            entries: [
                Self.entry(
                    server.url("/x.png"), formatter.string(from: Date()), status: 200,
                    content: #"{"mimeType":"image/png","text":"\#(Self.pngBase64)","encoding":"base64"}"#)
            ])
        let recorded = try Self.replay(["--chain", chain, "--ca-file", server.caFile, path])
        let line = try #require(recorded.jsonLines.first)
        #expect(line["reason"] as? String == "attached", "\(recorded.standardOutput)")
        let replay = try #require(line["replay"] as? [String: Any])
        #expect((replay["checked"] as? [String])?.contains("ats") == true)
        #expect(
            (replay["notes"] as? [String])?.contains { $0.hasPrefix("the certificate chain was supplied, not recorded: fetched later") }
                == true)
        let later = try Self.replay(["--chain", chain, "--ca-file", server.caFile, "--at", "2099-01-01T00:00:00Z", path])
        #expect(later.jsonLines.first?["reason"] as? String == "tls", "\(later.standardOutput)")
        #expect((later.jsonLines.first?["detail"] as? String)?.contains("expired") == true, "\(later.standardOutput)")
        let untrusted = try Self.replay(["--chain", chain, path])
        #expect(untrusted.jsonLines.first?["reason"] as? String == "tls", "\(untrusted.standardOutput)")
        #expect(try Self.replay(["--chain", path, path]).status == 64)
    }

    /// SPEC §9: a hostile HAR gets a clear error, never a trap. A shared download's recording names the
    /// first payload's file (`shared_with`); replay reads only a bare name in the recording's own
    /// directory, a regular file not through a link: a pipe does not hang it, a path or a link to
    /// another file is not read (nothing of it echoed), and each error names the recording given.
    @Test(arguments: [
        ("fifo.har", "'fifo.har': cannot read: "), ("link.har", "'link.har': cannot read: "),
        ("missing.har", "'missing.har': cannot read: No such file or directory"),
        ("../secret", "'../secret' is not a file name in the recording's own directory"),
        ("SECRET", "' is not a file name in the recording's own directory"),
    ])
    func aSharedWithNameReadsOnlyARecordingBesideIt(name: String, words: String) throws {
        let work = TemporaryDirectory("replay-shared-with")
        defer { work.remove() }
        let secret = work.file("secret")
        try Data("root:secret\n".utf8).write(to: URL(fileURLWithPath: secret))
        let directory = work.file("rec")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(try Command.run("/usr/bin/mkfifo", [directory + "/fifo.har"]).status == 0)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.har", withDestinationPath: secret)
        let named = name == "SECRET" ? secret : name
        let har = directory + "/s2.har"
        let text =
            #"{"log":{"version":"1.2","creator":{"name":"carillon-nse","version":"1"},"entries":[],"_carillon":{"shared_with":"\#(named)"}}}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: har))
        let run = try Command.run("/usr/bin/timeout", ["10", Paths.tool, "replay", har])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("carillon-nse: \(har): its shared download's first recording '"), "\(run.standardError)")
        #expect(run.standardError.contains(words), "\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect(!run.standardError.contains("unexpected"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    /// SPEC §9: replay opens no socket at all, whatever the file asks for.
    @Test func opensNoSocket() throws {
        let trace = TemporaryDirectory("strace").file("trace")
        let run = try Command.run(
            "/usr/bin/strace",
            [
                "-f", "-e", "trace=socket,connect", "-o", trace, Paths.tool, "replay", Self.fixture("chrome.har"),
                Self.fixture("mitmproxy.zhar"),
            ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.jsonLines.count == 4)
        let calls = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(calls.contains("+++ exited with 0 +++"))
        #expect(!calls.contains("socket(") && !calls.contains("connect("), "\(calls)")
    }
}
