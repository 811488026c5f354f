import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Redaction's rules, as tables: what is a secret, and how it is replaced.
@Suite struct RedactionTests {
    @Test func hashesAreStableAndShort() {
        // SHA-256("abc") starts ba7816bf.
        #expect(Redaction.replacement("abc") == "[redacted:ba7816bf]")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test(arguments: [
        ("Authorization", false, true), ("proxy-authorization", false, true), ("Cookie", false, true), ("Set-Cookie", false, true),
        ("X-Api-Key", true, true), ("X-Session-Id", true, true), ("X-Token", true, true), ("X-Client-Secret", true, true),
        ("X-Api-Key", false, false), ("Accept-Language", true, false), ("User-Agent", true, false), ("Content-Type", false, false),
    ])
    func namesSecretFields(name: String, extra: Bool, secret: Bool) {
        #expect(Redaction.isSecretField(name, extra: extra) == secret)
    }

    @Test(arguments: [
        ("https://s3.test/a.png?X-Amz-Date=1&X-Amz-Signature=abc123&x=1", ["abc123"]),
        ("https://cdn.test/a.png?token=t0k&sig=s1g#frag", ["t0k", "s1g"]),
        ("https://cdn.test/a.png?Key-Pair-Id=K1&Policy=P1&Signature=S1", ["K1", "P1", "S1"]),
        ("https://cdn.test/a.png?X%2DAmz%2DSignature=enc", ["enc"]),
        ("https://cdn.test/a.png?width=100&keyword=cat", []),
        ("https://cdn.test/a.png?token=", []),
        ("https://cdn.test/a.png", []),
    ])
    func findsSignedURLParameters(url: String, secrets: [String]) {
        #expect(Redaction.secrets(inURL: url) == secrets)
    }

    @Test func redactsEveryOccurrenceLongestFirst() {
        let text = "'https://s3.test/a.png?sig=abcdef' then abc and abcdef"
        let redacted = Redaction.redact(text, secrets: ["abc", "abcdef"])
        #expect(!redacted.contains("abc ") && !redacted.contains("abcdef"))
        #expect(redacted.contains(Redaction.replacement("abcdef")) && redacted.contains(Redaction.replacement("abc")))
    }

    @Test func replacesAlertStringsKeepingTheirLength() throws {
        let payload = try JSONParser.parse(
            Array(#"{"aps":{"alert":{"title":"Hi Ann","body":""},"mutable-content":1},"carillon":{"image":"https://x.test/a.png"}}"#.utf8))
        let redacted = JSONWriter.string(Redaction.redactAlert(payload))
        #expect(
            redacted
                == #"{"aps":{"alert":{"title":"[redacted: 6 chars]","body":"[redacted: 0 chars]"},"mutable-content":1},"carillon":{"image":"https://x.test/a.png"}}"#
        )
        let plain = try JSONParser.parse(Array(#"{"aps":{"alert":"secret text"}}"#.utf8))
        #expect(JSONWriter.string(Redaction.redactAlert(plain)) == #"{"aps":{"alert":"[redacted: 11 chars]"}}"#)
    }

    @Test(arguments: [
        (#"{"campaign":"short"}"#, #"{"campaign":"short"}"#),
        (
            #"{"note":"\#(String(repeating: "a", count: 70))"}"#,
            #"{"note":"\#(String(repeating: "a", count: 64))[… 6 chars cut]"}"#
        ),
        (
            #"{"carillon":{"image":"https://x.test/\#(String(repeating: "b", count: 70))"},"n":1}"#,
            #"{"carillon":{"image":"https://x.test/\#(String(repeating: "b", count: 70))"},"n":1}"#
        ),
    ])
    func cutsLongTopLevelStrings(payload: String, kept: String) throws {
        #expect(JSONWriter.string(Redaction.redactPayload(try JSONParser.parse(Array(payload.utf8)))) == kept)
    }
}
