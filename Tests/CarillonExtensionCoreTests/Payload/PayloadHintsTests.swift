import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// "Did you mean" hints for look-alike keys and other SDKs' image keys, from a table of payloads.
@Suite struct PayloadHintsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var json: String
        var hints: [String]
        var testDescription: String { json }
    }

    static let alert = #""alert":"Hi""#
    static let stamp = #""carillon":{"delivery_id":"01937b21-0000-7000-8000-000000000000","image":"https://cdn.example/a.png"}"#

    @Test(arguments: [
        // A well-formed payload has no hint.
        Case(json: #"{"aps":{\#(alert),"mutable-content":1},\#(stamp)}"#, hints: []),
        // Xcode's .apns files name the Simulator's app at the top level: not a misplaced key.
        Case(json: #"{"Simulator Target Bundle":"com.example.app","aps":{\#(alert),"mutable-content":1},\#(stamp)}"#, hints: []),
        Case(json: #"{"aps":{\#(alert),"mutable-content":1},"Simulator Target Bundle":"com.example.app"}"#, hints: []),
        Case(
            json: #"{"aps":{\#(alert),"mutable_content":1},\#(stamp)}"#,
            hints: [
                "aps key 'mutable_content' is not 'mutable-content': did you mean 'mutable-content'? (keys are exact)"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutableContent":1},\#(stamp)}"#,
            hints: [
                "aps key 'mutableContent' is not 'mutable-content': did you mean 'mutable-content'? (keys are exact)"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"Mutable-Content":1},\#(stamp)}"#,
            hints: [
                "aps key 'Mutable-Content' is not 'mutable-content': did you mean 'mutable-content'? (keys are exact)"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":"1"},\#(stamp)}"#,
            hints: [
                #"aps.mutable-content is the string "1": did you mean the number 1 ("mutable-content": 1)? iOS runs the extension only for the number"#
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":true},\#(stamp)}"#,
            hints: [
                #"aps.mutable-content is true: did you mean the number 1 ("mutable-content": 1)? iOS runs the extension only for the number"#
            ]),
        // mutable-content beside aps, not in it: FCM's key, and the aps spellings at the top level.
        Case(
            json: #"{"aps":{\#(alert)},"gcm.notification.mutable-content":1,\#(stamp)}"#,
            hints: [
                "top-level key 'gcm.notification.mutable-content' is not 'aps.mutable-content': did you mean 'aps.mutable-content'? (iOS reads it inside aps only)"
            ]),
        Case(
            json: #"{"aps":{\#(alert)},"mutable_content":1,\#(stamp)}"#,
            hints: [
                "top-level key 'mutable_content' is not 'aps.mutable-content': did you mean 'aps.mutable-content'? (iOS reads it inside aps only)"
            ]),
        Case(
            json: #"{"aps":{\#(alert)},"mutable-content":1,\#(stamp)}"#,
            hints: [
                "top-level key 'mutable-content' is not 'aps.mutable-content': did you mean 'aps.mutable-content'? (iOS reads it inside aps only)"
            ]),
        Case(
            json: #"{"mutable-content":1,\#(stamp)}"#,
            hints: [
                "top-level key 'mutable-content' is not 'aps.mutable-content': did you mean 'aps.mutable-content'? (iOS reads it inside aps only)"
            ]),
        // With aps.mutable-content present, a copy beside it changes nothing.
        Case(json: #"{"aps":{\#(alert),"mutable-content":1},"gcm.notification.mutable-content":1,\#(stamp)}"#, hints: []),
        Case(json: #"{"aps":{\#(alert),"mutable-content":1},"mutable_content":1,\#(stamp)}"#, hints: []),
        // The real key beside a look-alike: the look-alike changes nothing.
        Case(json: #"{"aps":{\#(alert),"mutable-content":1,"mutable_content":1},\#(stamp)}"#, hints: []),
        Case(
            json: #"{"APS":{\#(alert),"mutable-content":1},\#(stamp)}"#,
            hints: [
                "top-level key 'APS' is not 'aps': did you mean 'aps'? (keys are exact)"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"Carillon":{"image":"https://cdn.example/a.png"}}"#,
            hints: [
                "top-level key 'Carillon' is not 'carillon': did you mean 'carillon'? (keys are exact)"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"carillon":{"deliveryId":"x","delivery-id":"y","image":"https://c/a.png"}}"#,
            hints: [
                "carillon key 'deliveryId' is not 'delivery_id': did you mean 'delivery_id'? (keys are exact)",
                "carillon key 'delivery-id' is not 'delivery_id': did you mean 'delivery_id'? (keys are exact)",
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"carillon":{"delivery_id":"x","imageUrl":"https://c/a.png"}}"#,
            hints: [
                "carillon key 'imageUrl' is not 'image': did you mean 'image'? (keys are exact)"
            ]),
        // The Android form: a string holding the stamp.
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"carillon":"{\"delivery_id\":\"x\",\"image_url\":\"https://c/a.png\"}"}"#,
            hints: [
                "carillon key 'image_url' is not 'image': did you mean 'image'? (keys are exact)"
            ]),
        // Other SDKs' keys, when there is no carillon.image.
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"fcm_options":{"image":"https://c/a.png"}}"#,
            hints: [
                "'fcm_options.image' holds an image for another SDK: Carillon reads `carillon.image`"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"att":{"id":"https://c/a.png"}}"#,
            hints: [
                "'att' holds an image for another SDK: Carillon reads `carillon.image`"
            ]),
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1,"attachment-url":"https://c/a.png"},"media-url":"https://c/b.png"}"#,
            hints: [
                "'media-url' holds an image for another SDK: Carillon reads `carillon.image`",
                "'aps.attachment-url' holds an image for another SDK: Carillon reads `carillon.image`",
            ]),
        Case(json: #"{"aps":{\#(alert),"mutable-content":1},"image_url":"https://c/a.png",\#(stamp)}"#, hints: []),
        // A sample left as a template.
        Case(
            json: #"{"aps":{\#(alert),"mutable-content":1},"carillon":{"image":"{{BASE_URL}}/img/png"}}"#,
            hints: [
                "carillon.image '{{BASE_URL}}/img/png' is a template: replace {{BASE_URL}} with the test server's base_url (TestAssets/run-samples.sh does)"
            ]),
    ])
    func hintsForLookAlikesAndOtherSDKs(_ test: Case) throws {
        let payload = try Payload(bytes: Array(test.json.utf8))
        #expect(PayloadHints.warnings(payload.userInfo) == test.hints)
    }

    /// The byte filter before `String.contains`: never false where the Characters hold both pairs.
    @Test(arguments: [
        ("{{BASE_URL}}/img/png", true),
        ("https://cdn.example/{{a}}", true),
        ("}}{{", true),
        ("https://cdn.example/a.png", false),
        ("{{only-open", false),
        ("only-close}}", false),
        ("{}{}", false),
        ("{{\u{301}}}", true),
        ("", false),
    ])
    func templateFilter(_ text: String, _ expected: Bool) {
        #expect(PayloadHints.mayHoldTemplate(text) == expected)
        if text.contains("{{") && text.contains("}}") { #expect(PayloadHints.mayHoldTemplate(text)) }
    }

    /// The byte-by-byte fold of an ASCII key: the same string as folding its Characters (lowercased,
    /// without `-`, `_`, spaces and dots); a key that is not ASCII is folded by its Characters.
    @Test(arguments: [
        ("delivery_id", "deliveryid"),
        ("Mutable-Content", "mutablecontent"),
        ("gcm.notification.mutable-content", "gcmnotificationmutablecontent"),
        ("IMAGE URL", "imageurl"),
        ("a\r\nB", "a\r\nb"),
        ("-_ .", ""),
        ("", ""),
        ("@[`{~\u{7F}", "@[`{~\u{7F}"),
        ("Ímage_URL", "ímageurl"),
        ("-\u{301}x", "-\u{301}x"),
    ])
    func foldsKeys(_ key: String, _ expected: String) {
        #expect(PayloadHints.folded(key) == expected)
        #expect(PayloadHints.folded(key) == String(key.lowercased().filter { !"-_ .".contains($0) }))
    }

    @Test func notAnObjectHasNoHints() {
        #expect(PayloadHints.warnings(.array([])) == [])
    }
}
