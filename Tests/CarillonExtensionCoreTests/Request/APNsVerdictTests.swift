import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// APNs' verdict (SPEC §12), every rule from a table with its boundary: Apple's reason and status, or
/// `accepted`; what needs the credentials or the device is `unknown`.
@Suite struct APNsVerdictTests {
    static let token = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0"
    static let alert = #"{"aps":{"alert":"x","mutable-content":1}}"#

    /// A well-formed alert request with a bearer token, then `changes` applied: a header set (an empty
    /// value removes it), or `:method`, `:path`, `:authority` replaced.
    static func request(_ changes: [(String, String)] = [], body: String = alert) -> APNsRequest {
        var fields: [(String, String)] = [
            ("authorization", "bearer eyJ.x.y"), ("apns-topic", "com.example.app"), ("apns-push-type", "alert"), ("apns-priority", "10"),
        ]
        var method = "POST"
        var path = "/3/device/\(token)"
        var host = "api.push.apple.com"
        for (name, value) in changes {
            switch name {
            case ":method": method = value
            case ":path": path = value
            case ":authority": host = value
            case "+":  // a field added again
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                fields.append((parts[0], parts[1]))
            default:
                fields.removeAll { $0.0 == name }
                if !value.isEmpty { fields.append((name, value)) }
            }
        }
        return APNsRequest(
            form: .apnsText, method: method, target: RequestTarget(scheme: "https", host: host, port: nil, path: path),
            headers: fields.map { HTTPField(name: $0.0, value: $0.1) }, body: Array(body.utf8))
    }

    static func verdict(_ changes: [(String, String)] = [], body: String = alert, facts: PresentationFacts = .unknown) -> APNsVerdict {
        let request = request(changes, body: body)
        return APNsVerdict.judge(request, payload: try? JSONParser.parse(request.body), facts: facts)
    }

    @Test func aWellFormedRequestIsAcceptedAsFarAsTheRequestGoes() {
        let verdict = Self.verdict()
        #expect(verdict.reason == "accepted" && verdict.status == 200 && !verdict.refused)
        #expect(verdict.unknown.contains { $0.contains("provider token") })
        #expect(verdict.unknown.contains { $0.contains("device token is registered") })
        #expect(verdict.warnings.isEmpty)
    }

    @Test(
        arguments: [
            ([(":method", "GET")], "MethodNotAllowed", 405),
            ([(":path", "/3/devices/ab")], "BadPath", 404),
            ([(":path", "/3/device/")], "MissingDeviceToken", 400),
            ([(":path", "/3/device/ab/cd")], "BadPath", 404),
            ([(":path", "/3/device/not-hex")], "BadDeviceToken", 400),
            ([("+", "apns-topic=com.example.app")], "DuplicateHeaders", 400),
            ([("apns-push-type", "notification")], "InvalidPushType", 400),
            ([("apns-topic", "")], "MissingTopic", 400),
            ([("apns-priority", "7")], "BadPriority", 400),
            ([("apns-priority", "high")], "BadPriority", 400),
            ([("apns-push-type", "background"), ("apns-priority", "10")], "BadPriority", 400),
            // An omitted apns-priority is 10, APNs' default.
            ([("apns-push-type", "background"), ("apns-priority", "")], "BadPriority", 400),
            ([("apns-expiration", "tomorrow")], "BadExpirationDate", 400),
            ([("apns-expiration", "-1")], "BadExpirationDate", 400),
            ([("apns-id", "not-a-uuid")], "BadMessageId", 400),
            ([("apns-id", "eabeae5414a811e5b60b1697f925ec7b")], "BadMessageId", 400),
            ([("apns-collapse-id", String(repeating: "c", count: 65))], "BadCollapseId", 400),
            ([("apns-collapse-id", String(repeating: "é", count: 33))], "BadCollapseId", 400),
        ] as [([(String, String)], String, Int)])
    func eachRuleRefusesWithApplesReason(changes: [(String, String)], reason: String, status: Int) {
        let verdict = Self.verdict(changes)
        #expect(verdict.reason == reason, "\(verdict.detail)")
        #expect(verdict.status == status)
        #expect(verdict.refused)
        #expect(verdict.rule != nil)
    }

    @Test(
        arguments: [
            [("apns-collapse-id", String(repeating: "c", count: 64))], [("apns-collapse-id", String(repeating: "é", count: 32))],
            [("apns-expiration", "0")], [("apns-expiration", "1767225600")], [("apns-priority", "5")], [("apns-priority", "1")],
            [("apns-id", "EABEAE54-14A8-11E5-B60B-1697F925EC7B")], [("apns-push-type", "background"), ("apns-priority", "5")],
            [(":authority", "api.sandbox.push.apple.com")], [(":authority", "api.development.push.apple.com")],
        ] as [[(String, String)]])
    func andAcceptsJustInside(changes: [(String, String)]) {
        #expect(Self.verdict(changes).reason == "accepted", "\(Self.verdict(changes).detail)")
    }

    /// 4096 and 5120 bytes (VoIP) as sent: exactly the limit is accepted, one byte more refused.
    @Test(arguments: [
        ("alert", 4096, "accepted"), ("alert", 4097, "PayloadTooLarge"), ("voip", 5120, "accepted"), ("voip", 5121, "PayloadTooLarge"),
    ])
    func payloadSizeAtItsBoundary(pushType: String, bytes: Int, reason: String) {
        let prefix = #"{"aps":{"alert":"x","mutable-content":1},"pad":""#
        let body = prefix + String(repeating: "a", count: bytes - prefix.utf8.count - 2) + #""}"#
        #expect(body.utf8.count == bytes)
        let topic = pushType == "voip" ? "com.example.app.voip" : "com.example.app"
        let verdict = Self.verdict([("apns-push-type", pushType), ("apns-topic", topic)], body: body)
        #expect(verdict.reason == reason, "\(verdict.detail)")
        if reason != "accepted" { #expect(verdict.status == 413) }
    }

    @Test func anEmptyPayloadIsPayloadEmpty() {
        #expect(Self.verdict(body: "").reason == "PayloadEmpty")
    }

    /// Each push type's topic suffix: the right one is accepted, the bundle ID alone is not.
    @Test(arguments: [
        ("location", ".location-query"), ("voip", ".voip"), ("complication", ".complication"), ("fileprovider", ".pushkit.fileprovider"),
        ("liveactivity", ".push-type.liveactivity"), ("pushtotalk", ".voip-ptt"), ("widgets", ".push-type.widgets"),
    ])
    func eachPushTypesTopicSuffix(pushType: String, suffix: String) {
        let right = Self.verdict([("apns-push-type", pushType), ("apns-topic", "com.example.app" + suffix), ("apns-priority", "5")])
        #expect(right.reason == "accepted", "\(right.detail)")
        let wrong = Self.verdict([("apns-push-type", pushType), ("apns-topic", "com.example.app"), ("apns-priority", "5")])
        #expect(wrong.reason == "DeviceTokenNotForTopic", "\(wrong.detail)")
        #expect(wrong.rule?.source.isObservation == true, "the reason rests on developers' reports")
        let alertWithSuffix = Self.verdict([("apns-topic", "com.example.app" + suffix)])
        #expect(alertWithSuffix.reason == "DeviceTokenNotForTopic")
    }

    @Test func mdmTopicsAreTheCertificatesAndNotChecked() {
        #expect(Self.verdict([("apns-push-type", "mdm"), ("apns-topic", "com.apple.mgmt.External.x")]).reason == "accepted")
    }

    @Test func withTheAppTheTopicAndHostAreItsOwn() {
        let app = PresentationFacts(bundleIdentifier: "com.example.app", apsEnvironment: "development")
        let other = Self.verdict([("apns-topic", "com.other.app"), (":authority", "api.sandbox.push.apple.com")], facts: app)
        #expect(other.reason == "DeviceTokenNotForTopic")
        let voip = Self.verdict(
            [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip"), (":authority", "api.sandbox.push.apple.com")], facts: app)
        #expect(voip.reason == "accepted", "\(voip.detail)")
        let production = Self.verdict([], facts: app)
        #expect(production.reason == "BadDeviceToken", "a development token at the production host: \(production.detail)")
        #expect(Self.verdict([(":authority", "api.sandbox.push.apple.com")], facts: app).reason == "accepted")
    }

    @Test func whatTheRequestCannotSettleIsUnknown() {
        let certificate = Self.verdict([("authorization", ""), ("apns-topic", "")])
        #expect(certificate.reason == "accepted")
        #expect(certificate.unknown.contains { $0.contains("certificate") })
        let elsewhere = Self.verdict([(":authority", "push.example.com"), (":method", "GET")])
        #expect(elsewhere.reason == "unknown" && !elsewhere.refused && elsewhere.detail.contains("not to APNs"))
        #expect(elsewhere.unknown.contains { $0.contains("were it APNs: MethodNotAllowed") })
        let port = Self.verdict([(":authority", "api.push.apple.com:8443")])
        #expect(port.unknown.contains { $0.contains("8443") })
        var old = Self.request()
        old.httpVersion = "1.1"
        #expect(APNsVerdict.judge(old, payload: nil).unknown.contains { $0.contains("HTTP/2 only") })
    }

    @Test func aMissingPushTypeIsAWarning() {
        let verdict = Self.verdict([("apns-push-type", "")])
        #expect(verdict.reason == "accepted")
        #expect(verdict.warnings.contains { $0.contains("may return an error, delay the notification or drop it") })
    }

    @Test(arguments: [
        ("apns-priority", "10", "apns-priority 10 on"), ("apns-priority", "", "(APNs' default: the request has no apns-priority)"),
    ])
    func priorityTenOrNoneOnContentAvailableAloneIsRefused(name: String, value: String, says: String) {
        let verdict = Self.verdict([("apns-push-type", ""), (name, value)], body: #"{"aps":{"content-available":1}}"#)
        #expect(verdict.reason == "BadPriority" && verdict.detail.contains(says), "\(verdict.detail)")
        #expect(Self.verdict([("apns-push-type", ""), (name, "5")], body: #"{"aps":{"content-available":1}}"#).reason == "accepted")
    }

    @Test(arguments: [("", "PayloadEmpty", true), ("hello", "unknown", false), ("[1]", "unknown", false), ("{}", "accepted", false)])
    func aBodyThatIsNoPayloadIsJudgedWithoutOne(body: String, reason: String, refused: Bool) {
        let request = Self.request([], body: body)
        let verdict = APNsVerdict.judge(request, payload: nil)
        #expect(verdict.reason == reason && verdict.refused == refused, "\(verdict.detail)")
        let judgement = RequestJudgement.judge(request, payload: nil, attached: true)
        #expect(!judgement.extensionVerdict.runs && judgement.shown == nil)
    }

    @Test func priorityTenOnContentAvailableAloneIsRefused() {
        let verdict = Self.verdict([("apns-push-type", "")], body: #"{"aps":{"content-available":1}}"#)
        #expect(verdict.reason == "BadPriority")
    }

    @Test func whatTheScriptLeavesOpenIsUnknownNotRefused() {
        var request = Self.request([("apns-topic", "$TOPIC"), (":path", "/3/device/${DEVICE_TOKEN}")])
        request.unresolved = [
            ShellExpansion.Unresolved(source: "$TOPIC", why: "is not set in the file"),
            ShellExpansion.Unresolved(source: "${DEVICE_TOKEN}", why: "is not set in the file"),
        ]
        let verdict = APNsVerdict.judge(request, payload: nil)
        #expect(verdict.reason == "accepted", "\(verdict.detail)")
        #expect(verdict.unknown.contains { $0.contains("'$TOPIC'") })
        #expect(verdict.unknown.contains { $0.contains("${DEVICE_TOKEN}") })
    }
}
