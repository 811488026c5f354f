import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Whether the extension runs for a request (SPEC §12): routing plus the headers and the envelope, and
/// the seed's apns-override case named in every form.
@Suite struct ExtensionVerdictTests {
    static func judge(_ changes: [(String, String)] = [], body: String = APNsVerdictTests.alert) throws -> ExtensionVerdict {
        let request = APNsVerdictTests.request(changes, body: body)
        let payload = try JSONParser.parse(request.body)
        return ExtensionVerdict.judge(request, payload: payload, apns: APNsVerdict.judge(request, payload: payload))
    }

    @Test(
        arguments: [
            ([], APNsVerdictTests.alert, true, "mutable-content is 1"),
            ([("apns-collapse-id", String(repeating: "x", count: 65))], APNsVerdictTests.alert, false, "refused"),
            ([("apns-push-type", "background"), ("apns-priority", "5")], APNsVerdictTests.alert, false, "background"),
            ([("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")], APNsVerdictTests.alert, false, "only alert pushes"),
            (
                [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.app.push-type.liveactivity")], APNsVerdictTests.alert,
                false, "only alert"
            ),
            ([], #"{"aps":{"alert":"x"}}"#, false, "not-mutable"),
            ([], #"{"aps":{"content-available":1,"mutable-content":1}}"#, false, "only content-available"),
            ([], #"{"aps":{"alert":"x","mutable-content":"1"}}"#, false, "the string"),
        ] as [([(String, String)], String, Bool, String)])
    func theTable(changes: [(String, String)], body: String, runs: Bool, why: String) throws {
        let verdict = try Self.judge(changes, body: body)
        #expect(verdict.runs == runs)
        #expect(verdict.why.contains(why), "\(verdict.why)")
    }

    @Test(arguments: [("5", "in bursts"), ("1", "power")])
    func aLowPriorityRunsLate(priority: String, warning: String) throws {
        let verdict = try Self.judge([("apns-priority", priority)])
        #expect(verdict.runs)
        #expect(verdict.warnings.contains { $0.contains(warning) })
    }

    static let override = #"{"aps":{"alert":{"title":"T"},"sound":"default"},"carillon":{"image":"https://a/i.png"}}"#

    /// The seed's own case: an apns override that replaced `aps` wholesale, said in the request forms and
    /// as a hint of a plain payload.
    @Test func theSeedsOverrideIsNamedInEveryForm() throws {
        let text = try APNsRequestText.read(Array("POST /3/device/ab\napns-push-type: alert\n\n\(Self.override)".utf8))
        let curl = try CurlCommandTests.request(
            "curl -H 'apns-push-type: alert' -d '\(Self.override)' https://api.push.apple.com/3/device/ab")
        let fcm = FCMMessage.request(
            try JSONParser.parse(
                Array(
                    #"{"message":{"token":"t","data":{"carillon":"{\"image\":\"https://a/i.png\"}"},"notification":{"title":"T"},"apns":{"payload":{"aps":{"sound":"default"}}}}}"#
                        .utf8)))
        for request in [text, curl, fcm] {
            let payload = try JSONParser.parse(request.body)
            let verdict = ExtensionVerdict.judge(request, payload: payload, apns: APNsVerdict.judge(request, payload: payload))
            #expect(!verdict.runs)
            #expect(
                verdict.why.contains("an apns override that replaced aps wholesale drops mutable-content: 1"),
                "\(request.form): \(verdict.why)")
            #expect(verdict.rule == RequestRules.seedOverride)
        }
        let hints = PayloadHints.warnings(try JSONParser.parse(Array(Self.override.utf8)))
        #expect(hints.contains { $0.contains("keep it in the override") })
        #expect(PayloadHints.warnings(try JSONParser.parse(Array(#"{"aps":{"alert":"x"}}"#.utf8))).isEmpty, "no image: not the seed's case")
    }
}
