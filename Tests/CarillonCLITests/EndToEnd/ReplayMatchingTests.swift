import CarillonTestSupport
import Foundation
import Testing

/// `replay --match-ignore-query`: a payload's URL that differs from the capture's only in a volatile
/// parameter (ignored by default) or in one the option names still finds its entry, for the first
/// request and for a redirect's target; a bad name is a usage error naming the option.
@Suite(.timeLimit(.minutes(2))) struct ReplayMatchingTests {
    typealias E2E = ReplayEndToEndTests

    static func capture(_ directory: TemporaryDirectory) throws -> String {
        let image = #"{"mimeType":"image/png","text":"\#(E2E.pngBase64)","encoding":"base64"}"#
        let empty = #"{"mimeType":"text/html","size":0}"#
        return try E2E.har(
            directory, "signed.har",
            entries: [
                E2E.entry(
                    "https://s3.example/i.png?X-Amz-Date=20261202T100000Z&X-Amz-Expires=900&v=1", "2026-12-02T10:00:00.000Z",
                    status: 200, content: image),
                E2E.entry(
                    "https://a.example/go", "2026-12-02T10:00:01.000Z", status: 302,
                    headers: #"[{"name":"Location","value":"https://cdn.example/b.png?Expires=1764700000&v=7"}]"#, content: empty),
                E2E.entry("https://cdn.example/b.png?Expires=1764600000&v=7", "2026-12-02T10:00:02.000Z", status: 200, content: image),
            ])
    }

    @Test func aVolatileParameterIsIgnoredByDefault() throws {
        let directory = TemporaryDirectory("replay-match")
        let path = try Self.capture(directory)
        let run = try E2E.replay(["--url", "https://s3.example/i.png?X-Amz-Date=20261203T110000Z&X-Amz-Expires=60&v=1", path])
        #expect(run.status == 0, "\(run.standardError)")
        let line = try #require(run.jsonLines.first)
        #expect(line["reason"] as? String == "attached", "\(run.standardOutput)")
        #expect((line["replay"] as? [String: Any])?["entries"] as? [Int] == [0])
        // A redirect's Location with another Expires than the captured target's.
        let redirect = try E2E.replay(["--url", "https://a.example/go", path])
        let redirected = try #require(redirect.jsonLines.first)
        #expect(redirected["reason"] as? String == "attached", "\(redirect.standardOutput)")
        #expect((redirected["replay"] as? [String: Any])?["entries"] as? [Int] == [1, 2])
    }

    @Test func aNamedParameterIsIgnoredBesideTheDefaults() throws {
        let directory = TemporaryDirectory("replay-match")
        let path = try Self.capture(directory)
        let asked = "https://s3.example/i.png?X-Amz-Date=20261203T110000Z&v=2"
        let refused = try E2E.replay(["--url", asked, path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("no entry for '\(asked)'"), "\(refused.standardError)")
        let run = try E2E.replay(["--match-ignore-query", "V", "--match-ignore-query", "unused", "--url", asked, path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.jsonLines.first?["reason"] as? String == "attached", "\(run.standardOutput)")
    }

    @Test(arguments: ["", "v=1", "a&b"])
    func aBadNameIsAUsageError(name: String) throws {
        let run = try E2E.replay(["--match-ignore-query", name, "--url", "https://a.example/go", ReplayEndToEndTests.fixture("chrome.har")])
        #expect(run.status == 64)
        #expect(run.standardError.contains("--match-ignore-query"), "\(run.standardError)")
    }
}
