import CarillonTestSupport
import Foundation
import Testing

/// `process --app APP` on request files (SPEC §11's `--app` meeting §12): the app's bundle identifier
/// decides `apns-topic` (and its suffix per push type), its signed `aps-environment` the APNs host, its
/// content extensions' categories and `UNNotificationExtensionDefaultContentHidden` where the image shows,
/// and its notification entitlements what `interruption-level` becomes. Without `--app` each is unknown,
/// and none refuses or hides anything. One run per app over one directory of requests.
@Suite(.timeLimit(.minutes(2))) struct AppRequestEndToEndTests {
    /// An APNs request text to `host` for the app (`com.example.carillon`) unless `topic` says otherwise.
    static func request(host: String = "api.push.apple.com", topic: String = "com.example.carillon", type: String = "alert", aps: String)
        -> String
    {
        """
        POST /3/device/00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0 HTTP/2
        Host: \(host)
        authorization: bearer eyJhbGciOiJFUzI1NiJ9.e30.sig
        apns-topic: \(topic)
        apns-push-type: \(type)
        apns-priority: 10

        {"aps":{\(aps)"alert":{"title":"Hello","body":"An image"},"mutable-content":1},"carillon":{"image":"\(TestServer.shared.url("/img/png"))"}}

        """
    }

    static let requests: [(name: String, text: String)] = [
        ("1-topic.http", request(topic: "com.example.other", aps: "")),
        ("2-voip-suffix.http", request(topic: "com.example.other.voip", type: "voip", aps: "")),
        ("3-sandbox.http", request(host: "api.sandbox.push.apple.com", aps: "")),
        ("4-category.http", request(aps: #""category":"carillon-photo","#)),
        ("5-time-sensitive.http", request(aps: #""interruption-level":"time-sensitive","#)),
    ]

    /// Each request's line from one `process` run over the directory, with `--app APP` when given.
    static func lines(app: String?) async throws -> [[String: Any]] {
        let work = TemporaryDirectory("app-requests")
        defer { work.remove() }
        try FileManager.default.createDirectory(atPath: work.file("r"), withIntermediateDirectories: true)
        for (name, text) in requests { _ = try work.write("r/" + name, text) }
        let appOptions = try app.map { ["--app", try #require(try GeneratedApps.get().app($0).forms["ipa"])] } ?? []
        let result = try await tool(
            ["process", "--ca-file", TestServer.shared.caFile, "--attachments", work.file("att")] + appOptions + [work.file("r")])
        let lines = result.jsonLines
        try #require(lines.count == requests.count, "\(result.standardError)")
        return lines
    }

    static func apns(_ line: [String: Any]) -> String? {
        ((line["request"] as? [String: Any])?["apns"] as? [String: Any])?["reason"] as? String
    }

    static func shown(_ line: [String: Any]) -> [String]? {
        guard let shown = (line["request"] as? [String: Any])?["shown"] as? [String: Any] else { return nil }
        return ["banner", "expanded", "list", "lock_screen"].map { (shown[$0] as? [String: Any])?["value"] as? String ?? "?" }
    }

    static func warnings(_ line: [String: Any]) -> [String] { line["warnings"] as? [String] ?? [] }

    static let entitlementWarning = "without the app's time-sensitive entitlement"

    @Test func withoutTheAppNothingIsRefusedOrHidden() async throws {
        let lines = try await Self.lines(app: nil)
        #expect(lines.map(Self.apns) == ["accepted", "accepted", "accepted", "accepted", "accepted"])
        #expect(Self.shown(lines[3]) == ["shown", "shown", "shown", "unknown"])
        #expect(!Self.warnings(lines[4]).contains { $0.contains(Self.entitlementWarning) })
    }

    /// The healthy app: bundle id `com.example.carillon`, aps-environment production, a content extension
    /// claiming `carillon-photo` with its default content shown, the time-sensitive entitlement.
    @Test func theAppsBundleEnvironmentAndCategoriesDecide() async throws {
        let lines = try await Self.lines(app: "healthy")
        #expect(lines.map(Self.apns) == ["DeviceTokenNotForTopic", "DeviceTokenNotForTopic", "BadDeviceToken", "accepted", "accepted"])
        #expect(Self.shown(lines[3]) == ["expanded-only", "shown", "expanded-only", "unknown"])
        #expect(Self.shown(lines[4]) == ["shown", "shown", "shown", "unknown"])
        #expect(!Self.warnings(lines[4]).contains { $0.contains(Self.entitlementWarning) }, "\(Self.warnings(lines[4]))")
    }

    /// An app whose content extension hides the default content, and which is signed without the
    /// time-sensitive entitlement.
    @Test func hiddenDefaultContentAndAMissingEntitlement() async throws {
        let lines = try await Self.lines(app: "content-extension-hides-default-content")
        #expect(Self.shown(lines[3]) == ["not-shown", "unknown", "not-shown", "unknown"])
        #expect(Self.warnings(lines[4]).contains { $0.contains(Self.entitlementWarning) }, "\(Self.warnings(lines[4]))")
    }
}
