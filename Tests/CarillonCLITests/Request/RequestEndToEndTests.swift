import CarillonTestSupport
import Foundation
import Testing

/// Requests through the built tool (SPEC §12), against the local HTTPS server: a directory mixing an
/// APNs request text, curl commands, an FCM message and an `.apns` payload gives one line each, with
/// `request.apns`, the extension's verdict and `request.shown` as the tables say; `check -` judges a
/// pasted request; `--fail-on` takes `apns-refused` and `not-shown`; an `@file` outside is refused.
@Suite(.timeLimit(.minutes(2))) struct RequestEndToEndTests {
    /// `TestAssets/Requests/mixed/` with the test server's address, in a directory of its own.
    static func mixed() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("requests")
        let source = Paths.testAssets("Requests/mixed")
        try FileManager.default.createDirectory(atPath: directory.file("r"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            let text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
            _ = try directory.write("r/" + name, text.replacingOccurrences(of: "{{BASE_URL}}", with: TestServer.shared.baseURL))
        }
        return directory
    }

    static func request(_ line: [String: Any]) -> [String: Any]? { line["request"] as? [String: Any] }

    static func shown(_ line: [String: Any]) -> [String]? {
        guard let shown = request(line)?["shown"] as? [String: Any] else { return nil }
        return ["banner", "expanded", "list", "lock_screen"].map { (shown[$0] as? [String: Any])?["value"] as? String ?? "?" }
    }

    @Test func aMixedDirectoryGivesOneLineEachAsTheTablesSay() async throws {
        let directory = try Self.mixed()
        defer { directory.remove() }
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("att"), "--content-categories", "NONE",
            directory.file("r"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.jsonLines
        #expect(
            lines.map { ($0["payload"] as? String).map { String($0.split(separator: "/").last!) } } == [
                "01-alert.http", "02-collapse.curl", "03-fcm.json", "04-payload.apns", "05-background.sh", "07-override.txt",
            ], "06-notes.txt is not a request and is skipped; 07-payload.data is no payload file")
        guard lines.count == 6 else { return }
        let forms = lines.map { Self.request($0)?["form"] as? String }
        #expect(forms == ["apns-text", "curl", "fcm", nil, "curl", "curl"])
        let apns = lines.map { (Self.request($0)?["apns"] as? [String: Any])?["reason"] as? String }
        #expect(apns == ["accepted", "BadCollapseId", "accepted", nil, "accepted", "accepted"])
        let runs = lines.map { (Self.request($0)?["extension"] as? [String: Any])?["runs"] as? Bool }
        #expect(runs == [true, false, true, nil, false, false])
        #expect(lines.map { $0["reason"] as? String } == ["attached", "attached", "attached", "attached", "attached", "not-mutable"])
        #expect(Self.shown(lines[0]) == ["shown", "shown", "shown", "unknown"])
        #expect(Self.shown(lines[1]) == nil, "refused: nothing shows")
        #expect(Self.shown(lines[2]) == ["not-shown", "shown", "shown", "unknown"], "FCM's passive notification has no banner")
        #expect(lines[3]["request"] is NSNull, "a payload file has no request")
        #expect(Self.shown(lines[4]) == nil, "a background push never runs the extension")
        let why = (Self.request(lines[5])?["extension"] as? [String: Any])?["why"] as? String ?? ""
        #expect(why.contains("keep it in the override"), "the seed's case, from a curl command's --data-binary @file: \(why)")
        #expect(
            result.standardError.contains("5 requests: 1 refused (1 BadCollapseId), 3 without the extension"), "\(result.standardError)")
        #expect(result.standardError.contains("note: 1 input is a payload file, without the request that carries it"))
    }

    @Test func theTextViewSaysTheVerdicts() async throws {
        let directory = try Self.mixed()
        defer { directory.remove() }
        let result = try await tool([
            "process", "--format", "text", "--ca-file", TestServer.shared.caFile, "--previews", "always", directory.file("r/01-alert.http"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("  apns (apns-text): accepted 200 — well formed, as far as the request goes\n"))
        #expect(result.standardOutput.contains("  extension runs — aps.mutable-content is 1 and the alert displays\n"))
        #expect(result.standardOutput.contains("  image shows: banner shown, expanded shown, list shown, lock screen shown\n"))
    }

    @Test func failOnTakesApnsRefusedAndNotShown() async throws {
        let directory = try Self.mixed()
        defer { directory.remove() }
        let server = TestServer.shared
        let refused = try await tool([
            "process", "--ca-file", server.caFile, "--fail-on", "apns-refused", directory.file("r/02-collapse.curl"),
        ])
        #expect(refused.status == 2, "\(refused.standardError)")
        let accepted = try await tool([
            "process", "--ca-file", server.caFile, "--fail-on", "apns-refused", directory.file("r/01-alert.http"),
        ])
        #expect(accepted.status == 0, "\(accepted.standardError)")
        let locked = try await tool([
            "process", "--ca-file", server.caFile, "--fail-on", "not-shown", "--previews", "when-unlocked",
            directory.file("r/01-alert.http"),
        ])
        #expect(locked.status == 2, "the lock screen shows nothing while locked: \(locked.standardError)")
        let category = try await tool([
            "process", "--ca-file", server.caFile, "--fail-on", "not-shown", directory.file("r/01-alert.http"),
        ])
        #expect(category.status == 0, "with previews unknown, the lock screen is unknown, never not-shown")
        let junit = try await tool([
            "process", "--ca-file", server.caFile, "--format", "junit", "--fail-on", "apns-refused", directory.file("r"),
        ])
        #expect(junit.status == 2 && junit.standardOutput.contains("failures=\"1\""), "\(junit.standardOutput)")
        let bad = try await tool(["process", "--fail-on", "apns-rejected", directory.file("r/01-alert.http")])
        #expect(bad.status == 64 && bad.standardError.contains("apns-refused, not-shown"))
    }

    @Test func checkJudgesARequestPastedOnStandardInput() async throws {
        let directory = try Self.mixed()
        defer { directory.remove() }
        let pasted = try Data(contentsOf: URL(fileURLWithPath: directory.file("r/02-collapse.curl")))
        let result = try await tool(["check", "--ca-file", TestServer.shared.caFile, "-"], input: pasted)
        let line = try #require(result.jsonLines.first)
        #expect(result.jsonLines.count == 1)
        #expect((Self.request(line)?["apns"] as? [String: Any])?["reason"] as? String == "BadCollapseId", "\(line)")
    }

    @Test func aFileOutsideTheRequestsDirectoryIsRefusedAndTheLineSaysSo() async throws {
        let directory = try Self.mixed()
        defer { directory.remove() }
        _ = try directory.write("secret.json", #"{"aps":{"alert":"secret"}}"#)
        let script = try directory.write(
            "r/leak.sh", "curl -H 'apns-push-type: alert' -d @../secret.json https://api.push.apple.com/3/device/ab\n")
        let result = try await tool(["process", script])
        #expect(result.status == 1)
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == "invalid-payload")
        #expect((line["detail"] as? String)?.contains("'../secret.json' climbs out through '..'") == true, "\(line)")
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(script))
    }

    @Test func threeURLsAnsweringTheSameBytesAreASummaryWarning() async throws {
        let work = TemporaryDirectory("identical")
        defer { work.remove() }
        let server = TestServer.shared
        let urls = (1...3).map { server.url("/img/png?copy=\($0)") }
        let result = try await tool(
            ["check", "--ca-file", server.caFile, "--summary", work.file("s.json")] + urls + [server.url("/img/jpeg")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.contains("warning: 3 distinct image URLs answered byte-identical png images of"), "\(result.standardError)"
        )
        let two = try await tool(
            ["check", "--ca-file", server.caFile, "--summary", work.file("s2.json")] + urls.prefix(2) + [server.url("/img/jpeg")])
        #expect(!two.standardError.contains("warning"), "none said when there are none: \(two.standardError)")
        let notACampaign = try await tool(["check", "--ca-file", server.caFile] + urls)
        #expect(!notACampaign.standardError.contains("warning"), "only a campaign (JSON Lines or --summary) compares its images")
    }
}
