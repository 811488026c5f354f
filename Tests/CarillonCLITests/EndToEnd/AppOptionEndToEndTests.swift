import CarillonTestSupport
import Foundation
import Testing

/// `--app APP` on process, check and replay against the local HTTPS server: the extension's own ATS
/// exception changes a verdict (the TLS 1.0/1.1-only listener: tls without it, attached with it), the
/// request's User-Agent is built from the extension's bundle (the server's echo says so), an
/// insecure-HTTP exception is said to change nothing, and an app without its extension is a usage error.
@Suite(.timeLimit(.minutes(2))) struct AppOptionEndToEndTests {
    static func app(_ name: String) throws -> String { try #require(try GeneratedApps.get().app(name).forms["ipa"]) }

    static func line(_ result: Command.Result) throws -> [String: Any] { try #require(result.jsonLines.first, "\(result.standardError)") }

    @Test func theExtensionsExceptionChangesAVerdict() async throws {
        let url = TestServer.shared.url("/img/png", onATSListener: "ats_tls11")
        let without = try Self.line(try await tool(["check", "--ca-file", TestServer.shared.caFile, url]))
        #expect(without["reason"] as? String == "tls")
        #expect((without["detail"] as? String)?.contains("TLS version") == true)
        let app = try Self.app("ats-tls11")
        let with = try Self.line(try await tool(["check", "--ca-file", TestServer.shared.caFile, "--app", app, url]))
        #expect(with["reason"] as? String == "attached", "\(with["detail"] ?? "")")
        let hop = try #require(((with["trace"] as? [String: Any])?["hops"] as? [[String: Any]])?.first)
        #expect((hop["tls"] as? [String: Any])?["version"] as? String == "TLSv1.1")
        // An app whose extension has no exception for the address: ATS's defaults stand.
        let strict = try Self.line(try await tool(["check", "--ca-file", TestServer.shared.caFile, "--app", try Self.app("healthy"), url]))
        #expect(strict["reason"] as? String == "tls")
        // Under --app the fix is the extension's Info.plist exception for that host, not an option.
        #expect((without["detail"] as? String)?.contains("--tls-minimum") == true)
        let strictDetail = strict["detail"] as? String ?? ""
        #expect(
            strictDetail.contains(
                "(App Transport Security; NSExceptionMinimumTLSVersion under NSExceptionDomains → '127.0.0.1' in the extension's Info.plist)"
            ),
            "\(strictDetail)")
        #expect(!strictDetail.contains("--tls-minimum"))
        // --tls-minimum still wins over the app's exception, and is then the fix named.
        let overridden = try Self.line(
            try await tool(["check", "--ca-file", TestServer.shared.caFile, "--app", app, "--tls-minimum", "1.2", url]))
        #expect(overridden["reason"] as? String == "tls")
        #expect((overridden["detail"] as? String)?.contains("--tls-minimum") == true)
    }

    /// `process --app` on a payload file (issue 36's Done-when): the same exception changes the verdict,
    /// and the request's User-Agent is the extension's.
    @Test func processTakesTheExtensionsExceptionAndUserAgent() async throws {
        let work = TemporaryDirectory("app-process")
        defer { work.remove() }
        let url = TestServer.shared.url("/img/png", onATSListener: "ats_tls11")
        let payload = try work.write("p.json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let base = ["process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("att")]
        let without = try Self.line(try await tool(base + [payload]))
        #expect(without["reason"] as? String == "tls")
        let with = try Self.line(try await tool(base + ["--app", try Self.app("ats-tls11"), payload]))
        #expect(with["reason"] as? String == "attached", "\(with["detail"] ?? "")")
        let sent = ((with["trace"] as? [String: Any])?["request_headers"] as? [String: String])?["User-Agent"]
        #expect(sent?.hasPrefix("NotificationService/42 CFNetwork/") == true, "\(sent ?? "nil")")
    }

    /// A refusal recorded under `--app` names the extension's exception; `replay --check` of it, with or
    /// without `--app`, finds nothing changed (the detail is compared), and a recording made without
    /// `--app` keeps naming the option.
    @Test func aRecordingUnderTheAppKeepsItsWordingWhenChecked() async throws {
        let work = TemporaryDirectory("app-wording")
        defer { work.remove() }
        let url = TestServer.shared.url("/img/png", onATSListener: "ats_tls11")
        let payload = try work.write("p.json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let ca = ["--ca-file", TestServer.shared.caFile]
        let app = try Self.app("healthy")
        let recorded = try Self.line(try await tool(["process"] + ca + ["--app", app, "--record", work.file("app"), payload]))
        #expect((recorded["detail"] as? String)?.contains("NSExceptionMinimumTLSVersion under NSExceptionDomains → '127.0.0.1'") == true)
        for options in [["--app", app], []] {
            let checked = try await tool(["replay", "--check"] + ca + options + [work.file("app/p.har")])
            #expect(checked.status == 0, "\(options): \(checked.standardError)")
        }
        _ = try await tool(["process"] + ca + ["--record", work.file("plain"), payload])
        let plain = try await tool(["replay", "--check"] + ca + [work.file("plain/p.har")])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect((try Self.line(plain)["detail"] as? String)?.contains("--tls-minimum") == true)
    }

    /// The server's echo of the request: the User-Agent is the extension's executable and bundle version.
    @Test func theUserAgentIsTheExtensionsAsTheServerSawIt() async throws {
        let work = TemporaryDirectory("app-user-agent")
        defer { work.remove() }
        let payload = try work.write(
            "p.json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(TestServer.shared.url("/echo/headers"))"}}"#)
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--app", try Self.app("healthy"), "--record", work.file("rec"), payload,
        ])
        let line = try Self.line(result)
        let sent = ((line["trace"] as? [String: Any])?["request_headers"] as? [String: String])?["User-Agent"]
        #expect(sent?.hasPrefix("NotificationService/42 CFNetwork/") == true, "\(sent ?? "nil")")
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: work.file("rec/p.har")))) as? [String: Any]
        let entry = try #require(((har?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.last)
        let content = try #require((entry["response"] as? [String: Any])?["content"] as? [String: Any])
        let text = try #require(content["text"] as? String)
        let body = try #require(Data(base64Encoded: text))
        let echo = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect((echo["headers"] as? [String: String])?["user-agent"] == sent)
    }

    @Test func anInsecureHTTPExceptionChangesNothingAndTheLineSaysSo() async throws {
        let url = "http://127.0.0.1:\(TestServer.shared.port)/img/png"
        let result = try await tool(["check", "--app", try Self.app("insecure-http-exception"), url])
        let line = try Self.line(result)
        #expect(line["reason"] as? String == "insecure-url")
        let warnings = line["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("NSExceptionAllowsInsecureHTTPLoads") && $0.contains("HTTPS only") }, "\(warnings)")
        let plain = try Self.line(try await tool(["check", url]))
        #expect(!(plain["warnings"] as? [String] ?? []).contains { $0.contains("NSExceptionAllowsInsecureHTTPLoads") })
    }

    /// replay --app judges a recorded TLS 1.1 handshake by the extension's exception, not the recording's options.
    @Test func replayUsesTheAppsExceptionToo() async throws {
        let work = TemporaryDirectory("app-replay")
        defer { work.remove() }
        let url = TestServer.shared.url("/img/png", onATSListener: "ats_tls11")
        let payload = try work.write("p.json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(url)"}}"#)
        let recorded = try await tool(["process", "--ca-file", TestServer.shared.caFile, "--record", work.file("rec"), payload])
        #expect(try Self.line(recorded)["reason"] as? String == "tls")
        let replayed = try Self.line(try await tool(["replay", "--ca-file", TestServer.shared.caFile, work.file("rec/p.har")]))
        #expect(replayed["reason"] as? String == "tls")
        let withApp = try Self.line(
            try await tool(["replay", "--ca-file", TestServer.shared.caFile, "--app", try Self.app("ats-tls11"), work.file("rec/p.har")]))
        #expect(withApp["reason"] as? String == "attached", "\(withApp["detail"] ?? "")")
        // A redirect to http, replayed with an app whose exception allows insecure loads there: still
        // insecure-url, and the line says the exception changes nothing.
        let http = try work.write(
            "h.json", #"{"aps":{"alert":"Hi","mutable-content":1},"carillon":{"image":"\#(TestServer.shared.url("/redirect/to-http"))"}}"#)
        _ = try await tool(["process", "--ca-file", TestServer.shared.caFile, "--record", work.file("rec"), http])
        let insecure = try Self.line(
            try await tool([
                "replay", "--ca-file", TestServer.shared.caFile, "--app", try Self.app("insecure-http-exception"), work.file("rec/h.har"),
            ]))
        #expect(insecure["reason"] as? String == "insecure-url")
        #expect((insecure["warnings"] as? [String] ?? []).contains { $0.contains("NSExceptionAllowsInsecureHTTPLoads") })
    }

    @Test(arguments: [("no-service-extension", "embeds no notification service extension"), ("two-service-extensions", "embeds 2")])
    func anAppWithoutItsExtensionIsAUsageError(app: String, says: String) async throws {
        let result = try await tool(["check", "--app", try Self.app(app), "https://127.0.0.1/x.png"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("option '--app'") && result.standardError.contains(says), "\(result.standardError)")
        let traversal = try #require(try GeneratedApps.get().hostile["traversal"])
        let hostile = try await tool(["process", "--app", traversal, "-"])
        #expect(hostile.status == 64 && hostile.standardError.contains("climbs out"))
    }
}
