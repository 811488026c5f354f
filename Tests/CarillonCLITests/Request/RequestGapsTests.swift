import CarillonTestSupport
import Foundation
import Testing

/// The request's edges (SPEC §12): a request whose body is not a payload keeps its `request`; a script
/// or note that uses curl for something else changes nothing; `check -` of a JSON object is never URLs;
/// an `@file` named by a variable set outside the script is never opened; JUnit names the refusal;
/// replay refuses the request's `--fail-on` words. No download: nothing here reaches the test server.
@Suite(.timeLimit(.minutes(2))) struct RequestGapsTests {
    static let token = String(repeating: "ab", count: 32)
    static let collapse = String(repeating: "c", count: 65)

    static func directory(_ work: TemporaryDirectory, _ name: String) throws {
        try FileManager.default.createDirectory(atPath: work.file(name), withIntermediateDirectories: true)
    }

    static func apns(_ line: [String: Any]) -> [String: Any]? { (line["request"] as? [String: Any])?["apns"] as? [String: Any] }

    @Test(arguments: [
        (
            "a.http", "POST /3/device/\(token) HTTP/2\napns-push-type: alert\napns-topic: com.example.app\n\n", "the request has no body",
            "PayloadEmpty"
        ),
        (
            "b.curl", "curl -X POST -H 'apns-push-type: alert' https://api.push.apple.com/3/device/\(token)\n", "the request has no body",
            "PayloadEmpty"
        ),
        (
            "c.curl", "curl -d '' -H 'apns-push-type: alert' https://api.push.apple.com/3/device/\(token)\n", "the request has no body",
            "PayloadEmpty"
        ),
        (
            "d.curl", "curl -G -H 'apns-push-type: alert' https://api.push.apple.com/3/device/\(token)\n", "the request has no body",
            "MethodNotAllowed"
        ),
        ("e.curl", "curl -d 'hello' https://api.push.apple.com/3/device/\(token)\n", "the request's body is not valid JSON", "unknown"),
    ])
    func aRequestWithoutAPayloadKeepsItsRequest(name: String, text: String, detail: String, reason: String) async throws {
        let work = TemporaryDirectory("no-body")
        defer { work.remove() }
        let path = try work.write(name, text)
        let result = try await tool(["process", path])
        #expect(result.status == 1, "still an unreadable payload: \(result.standardError)")
        let line = try #require(result.jsonLines.first)
        #expect(line["reason"] as? String == "invalid-payload")
        #expect((line["detail"] as? String)?.hasPrefix(detail) == true, "\(line)")
        #expect(!(line["detail"] as? String ?? "").contains("empty file"))
        let apns = try #require(Self.apns(line), "the line has request: \(line)")
        // -G makes it a GET: APNs' first refusal is the method, before the empty payload.
        #expect(apns["reason"] as? String == reason, "\(apns)")
        #expect(((line["request"] as? [String: Any])?["extension"] as? [String: Any])?["runs"] as? Bool == false)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(path))
    }

    @Test func aCollapseIdInABodilessRequestIsNotLostAndFailOnMatchesButUnreadableWins() async throws {
        let work = TemporaryDirectory("no-body-collapse")
        defer { work.remove() }
        let path = try work.write(
            "r.curl", "curl -X POST -H 'apns-collapse-id: \(Self.collapse)' https://api.push.apple.com/3/device/\(Self.token)\n")
        let result = try await tool(["process", "--fail-on", "apns-refused", path])
        // SPEC §6: 2 only when every input was read; an unreadable payload is 1 whatever --fail-on matches.
        #expect(result.status == 1, "\(result.standardError)")
        let line = try #require(result.jsonLines.first)
        #expect(Self.apns(line)?["reason"] as? String == "BadCollapseId", "\(line)")
        let junit = try await tool(["process", "--format", "junit", "--fail-on", "apns-refused", path])
        #expect(junit.standardOutput.contains("errors=\"1\""), "still an error in JUnit: \(junit.standardOutput)")
    }

    @Test func aScriptOrNoteThatUsesCurlForSomethingElseChangesNothing() async throws {
        let work = TemporaryDirectory("curl-notes")
        defer { work.remove() }
        try Self.directory(work, "d")
        _ = try work.write("d/a.json", #"{"aps":{"alert":"x"}}"#)
        _ = try work.write("d/fetch.sh", "#!/bin/sh\ncurl -sSfo s.png https://example.com/s.png\n")
        _ = try work.write("d/notes.txt", "Debug with:\ncurl -v https://example.com/status\n")
        let result = try await tool(["process", work.file("d")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.jsonLines.count == 1 && result.jsonLines.first?["payload"] as? String == work.file("d/a.json"),
            "\(result.standardOutput)")
    }

    @Test(arguments: [
        ("{\"message\":{\"token\":\"t\",\"notification\":{\"title\":\"x\",}}}\n", "not valid JSON"),
        (String(repeating: "[", count: 500_000), "not valid JSON"),
    ])
    func checkReadsAJSONObjectOnStandardInputAsOneInput(prefix: String, detail: String) async throws {
        let text = prefix.hasPrefix("{") ? prefix : "{\"message\":{\"data\":" + prefix
        let result = try await tool(["check", "-"], input: Data(("\u{FEFF} \n" + text).utf8))
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.jsonLines.count == 1, "one input, not URL lines: \(result.standardOutput.prefix(400))")
        let line = try #require(result.jsonLines.first)
        #expect(line["payload"] as? String == "-" && (line["detail"] as? String)?.contains(detail) == true, "\(line)")
        #expect(result.standardError.hasPrefix("carillon-nse: -: "))
    }

    @Test func anAtFileNamedByAVariableSetOutsideIsNeverOpened() async throws {
        try RequiredPackage.command("strace", package: "strace")
        let work = TemporaryDirectory("unset-file")
        defer { work.remove() }
        // The literal file exists beside the script: the old reader opened it.
        try Self.directory(work, "r/$HOME")
        _ = try work.write("r/$HOME/x", #"{"aps":{"alert":"x"}}"#)
        _ = try work.write("r/$HDR", "apns-push-type: alert\n")
        let cases = [
            ("data.sh", "curl --data-binary @\"$HOME/x\" https://api.push.apple.com/3/device/\(Self.token)\n", "$HOME/x", "$HOME"),
            ("header.sh", "curl -H @$HDR -d '{}' https://api.push.apple.com/3/device/\(Self.token)\n", "$HDR", "$HDR"),
        ]
        for (name, text, file, variable) in cases {
            let script = try work.write("r/" + name, text)
            let log = work.file(name + ".strace")
            let result = try Command.run("/usr/bin/strace", ["-f", "-qq", "-e", "trace=%file", "-o", log, Paths.tool, "process", script])
            #expect(result.status == 1, "\(result.standardError)")
            let line = try #require(result.jsonLines.first)
            let detail = line["detail"] as? String ?? ""
            #expect(detail.contains("the file name holds \(variable), which is not set in the file; not read"), "\(detail)")
            let calls = try String(contentsOfFile: log, encoding: .utf8)
            #expect(!calls.contains(file), "opened: \(calls.split(separator: "\n").filter { $0.contains(file) })")
        }
    }

    @Test func junitNamesTheRefusalWhenTheRequestIsWhatFailed() async throws {
        let work = TemporaryDirectory("junit-refusal")
        defer { work.remove() }
        // No image (nothing downloaded): the outcome is no-image, which --fail-on does not name.
        let path = try work.write(
            "r.curl",
            "curl -H 'apns-collapse-id: \(Self.collapse)' -d '{\"aps\":{\"alert\":\"x\",\"mutable-content\":1}}' https://api.push.apple.com/3/device/\(Self.token)\n"
        )
        let result = try await tool(["process", "--format", "junit", "--fail-on", "apns-refused", path])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardOutput.contains("type=\"BadCollapseId\""), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("message=\"apns-collapse-id is 65 bytes, over APNs&apos; 64\""), "\(result.standardOutput)")
    }

    @Test func helpAndReplaySayWhatFailOnTakes() async throws {
        let process = try await tool(["process", "--help"])
        #expect(process.standardOutput.contains("*.http, *.curl, *.sh and *.txt"), "\(process.standardOutput)")
        #expect(process.standardOutput.contains("apns-refused or not-shown"))
        let check = try await tool(["check", "--help"])
        #expect(check.standardOutput.contains("apns-refused or not-shown"))
        let replay = try await tool(["replay", "--fail-on", "attached,apns-refused", "x.har"])
        #expect(
            replay.status == 64 && replay.standardError.contains("not 'apns-refused': a recording carries no request"),
            "\(replay.standardError)")
        let replayHelp = try await tool(["replay", "--help"])
        #expect(!replayHelp.standardOutput.contains("apns-refused or not-shown"))
    }
}
