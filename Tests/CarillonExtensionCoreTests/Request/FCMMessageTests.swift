import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// An FCM HTTP v1 message and the APNs request FCM sends for it (SPEC §12): the mapping Firebase
/// documents, its defaults, and what FCM refuses or passes on as written.
@Suite struct FCMMessageTests {
    static func request(_ json: String) throws -> APNsRequest {
        FCMMessage.request(try JSONParser.parse(Array(json.utf8)))
    }

    static func payload(_ json: String) throws -> String {
        String(decoding: try request(json).body, as: UTF8.self)
    }

    @Test(arguments: [
        // notification makes aps.alert; data keys are top-level keys.
        (
            #"{"message":{"token":"t","notification":{"title":"T","body":"B"},"data":{"carillon":"{}","k":"v"}}}"#,
            #"{"aps":{"alert":{"title":"T","body":"B"}},"carillon":"{}","k":"v"}"#
        ),
        // apns.payload's aps.alert overrides notification's title and body; its other keys stay.
        (
            #"{"message":{"topic":"x","notification":{"title":"T"},"apns":{"payload":{"aps":{"alert":"mine","badge":4}}}}}"#,
            #"{"aps":{"alert":"mine","badge":4}}"#
        ),
        // Without an alert there, notification's fills it in, first.
        (
            #"{"message":{"topic":"x","notification":{"body":"B"},"apns":{"payload":{"aps":{"mutable-content":1}}}}}"#,
            #"{"aps":{"alert":{"body":"B"},"mutable-content":1}}"#
        ),
        // The image travels as fcm_options.image; apns.fcm_options' wins over notification's; no mutable-content added.
        (
            #"{"message":{"token":"t","notification":{"title":"T","image":"https://a/n.png"},"apns":{"fcmOptions":{"image":"https://a/a.png"}}}}"#,
            #"{"aps":{"alert":{"title":"T"}},"fcm_options":{"image":"https://a/a.png"}}"#
        ),
        (#"{"message":{"condition":"'a' in topics"}}"#, "{}"),
    ])
    func theMappingFirebaseDocuments(message: String, payload: String) throws {
        #expect(try Self.payload(message) == payload)
        #expect(try Self.request(message).fcm?.refusal == nil)
    }

    @Test func headersAreSentWithFCMsDefaultsWhereAbsent() throws {
        let given = try Self.request(#"{"message":{"token":"t","apns":{"headers":{"apns-priority":"5","apns-push-type":"alert"}}}}"#)
        #expect(given.headers.map(\.name) == ["apns-priority", "apns-push-type", "apns-expiration"])
        #expect(given.header("apns-priority")?.value == "5")
        #expect(given.defaultedHeaders == ["apns-expiration"])
        let none = try Self.request(#"{"message":{"token":"t"}}"#)
        #expect(none.header("apns-priority")?.value == "10")
        #expect(none.defaultedHeaders == ["apns-priority", "apns-expiration"])
        #expect(none.sender == .fcm && none.method == nil && none.target == nil)
    }

    @Test(arguments: [
        (#"{"message":{"token":"t","mutable_content":true}}"#, #"Unknown name "mutable_content" at 'message'"#),
        (#"{"message":{"token":"t","content_available":true}}"#, "legacy API's"),
        (#"{"message":{"token":"t"},"to":"x"}"#, #"Unknown name "to""#),
        (#"{"message":{"notification":{}},"token":"t"}"#, "belongs inside 'message'"),
        (#"{"message":{"token":"t","notification":{"sound":"default"}}}"#, "at 'message.notification'"),
        (#"{"message":{"token":"t","apns":{"mutable_content":1}}}"#, "at 'message.apns'"),
        (#"{"message":{"notification":{"title":"x"}}}"#, "no target"),
        (#"{"message":{"token":"t","topic":"x"}}"#, "Oneof field 'target'"),
        (#"{"message":{"token":"t","data":{"n":1}}}"#, "TYPE_STRING"),
        (#"{"message":{"token":"t","apns":{"headers":{"apns-priority":10}}}}"#, "message.apns.headers[0].value"),
        (#"{"message":{"token":"t","data":{"google.x":"1"}}}"#, "reserved"),
        (#"{"message":{"token":"t","apns":{"payload":"x"}}}"#, "'message.apns.payload'"),
    ])
    func whatFCMRefuses(message: String, refusal: String) throws {
        let request = try Self.request(message)
        #expect(request.fcm?.refusal?.contains(refusal) == true, "\(String(describing: request.fcm?.refusal))")
        #expect(APNsVerdict.judge(request, payload: nil).refused)
    }

    @Test(arguments: [#"{"validateOnly":true,"message":{"fcm_options":{"analyticsLabel":"x"},"token":"t"}}"#])
    func protoNamesInEitherForm(message: String) throws {
        let request = try Self.request(message)
        #expect(request.fcm?.refusal == nil)
        #expect(request.fcm?.validateOnly == true)
        #expect(request.notes.contains { $0.contains("validate_only") })
    }

    @Test(arguments: [(true, false, "validate_only is true"), (false, true, "aps.mutable-content is 1")])
    func aValidateOnlyMessageDeliversNothing(validateOnly: Bool, runs: Bool, why: String) throws {
        let message =
            #"{"validate_only":\#(validateOnly),"message":{"token":"t","apns":{"payload":{"aps":{"mutable-content":1,"alert":"x"}}}}}"#
        let request = try Self.request(message)
        let judgement = RequestJudgement.judge(request, payload: try JSONParser.parse(request.body), attached: true)
        #expect(
            judgement.extensionVerdict.runs == runs && judgement.extensionVerdict.why.hasPrefix(why), "\(judgement.extensionVerdict.why)")
        #expect((judgement.shown == nil) == validateOnly, "nothing shows where nothing is delivered")
        if validateOnly { #expect(judgement.extensionVerdict.why.contains("were it sent, the extension would run: aps.mutable-content")) }
    }

    @Test func theAdminSDKsSpellingIsPassedOnAsWritten() throws {
        let request = try Self.request(#"{"message":{"token":"t","apns":{"payload":{"aps":{"mutableContent":1,"alert":"x"}}}}}"#)
        #expect(request.fcm?.refusal == nil)
        #expect(request.fcm?.passedRaw.first?.contains("aps.mutableContent is passed to APNs as written") == true)
        let payload = try JSONParser.parse(request.body)
        let verdict = ExtensionVerdict.judge(request, payload: payload, apns: APNsVerdict.judge(request, payload: payload))
        #expect(!verdict.runs)
        #expect(verdict.why.contains("mutableContent"), "\(verdict.why)")
    }

    @Test(arguments: [
        (#"{"message":{"token":"x"}}"#, true), (#"{"message":{},"validate_only":false}"#, true), (#"{"aps":{},"message":{}}"#, false),
        (#"{"message":"hi"}"#, false), (#"{"aps":{"alert":"x"}}"#, false), ("[1]", false),
    ])
    func whatIsAnFCMMessage(json: String, isMessage: Bool) throws {
        #expect(FCMMessage.recognises(try JSONParser.parse(Array(json.utf8))) == isMessage)
    }
}
