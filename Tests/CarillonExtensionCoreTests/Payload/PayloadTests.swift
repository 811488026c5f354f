import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A payload file's bytes: one JSON object, with what is odd about it as warnings.
@Suite struct PayloadTests {
    static func payload(_ text: String) throws -> Payload { try Payload(bytes: Array(text.utf8)) }

    @Test func anObjectIsReadWithNoWarnings() throws {
        let payload = try Self.payload(#"{"aps":{"alert":"hi","mutable-content":1}}"#)
        #expect(payload.warnings.isEmpty)
        #expect(payload.bytes == Array(#"{"aps":{"alert":"hi","mutable-content":1}}"#.utf8))
        guard case .object = payload.userInfo else {
            Issue.record("userInfo is not an object: \(payload.userInfo)")
            return
        }
    }

    @Test(arguments: ["[]", "\"text\"", "1", "null", "true"])
    func aValueThatIsNotAnObjectIsRefusedByName(text: String) {
        #expect { try Self.payload(text) } throws: { error in
            (error as? Payload.InvalidPayload)?.message.contains("object") == true
        }
    }

    @Test(arguments: ["", "{", "{\"a\":}", "{\"a\":1}x", "\u{FEFF}"])
    func brokenJSONIsRefused(text: String) {
        #expect(throws: Payload.InvalidPayload.self) { try Self.payload(text) }
    }

    @Test func overAPNsLimitIsAWarningNotARefusal() throws {
        let body = String(repeating: "x", count: Payload.apnsMaximumBytes)
        let payload = try Self.payload(#"{"aps":{"alert":"\#(body)"}}"#)
        #expect(payload.warnings.contains { $0.contains("4096") }, "\(payload.warnings)")
    }

    /// A compact payload of exactly `size` bytes: an alert padded to length.
    static func compactPayload(size: Int) -> String {
        let frame = #"{"aps":{"alert":"","mutable-content":1}}"#
        let alert = String(repeating: "x", count: size - frame.utf8.count)
        return #"{"aps":{"alert":"\#(alert)","mutable-content":1}}"#
    }

    @Test func exactly4096CompactBytesIsAccepted() throws {
        let text = Self.compactPayload(size: 4096)
        #expect(text.utf8.count == 4096)
        #expect(try Self.payload(text).warnings.isEmpty)
    }

    @Test func compact4097BytesIsRefusedByAPNs() throws {
        let text = Self.compactPayload(size: 4097)
        #expect(text.utf8.count == 4097)
        #expect(
            try Self.payload(text).warnings == [
                "payload is 4097 bytes as compact JSON; APNs refuses payloads over 4096 bytes (PayloadTooLarge)"
            ])
    }

    @Test func aPrettyPrintedPayloadUnderTheLimitIsOverOnlyBecauseOfItsWhitespace() throws {
        // 3,485 compact bytes, indented to a file over 4 KiB: APNs takes what a provider sends, compact.
        let alert = String(repeating: "word ", count: 689)
        let compact = #"{"aps":{"alert":"\#(alert)","mutable-content":1}}"#
        #expect(compact.utf8.count == 3485)
        let padding = String(repeating: " ", count: 700)
        let pretty = "{\n\(padding)\"aps\" : {\n\(padding)\"alert\" : \"\(alert)\",\n\(padding)\"mutable-content\" : 1\n  }\n}\n"
        #expect(pretty.utf8.count > 4096)
        let warnings = try Self.payload(pretty).warnings
        #expect(
            warnings == [
                "the file is \(pretty.utf8.count) bytes, over APNs' 4096-byte limit only because of its whitespace: "
                    + "as compact JSON, what a provider sends, it is 3485 bytes, which APNs accepts"
            ])
    }

    @Test func aPrettyPrintedPayloadOverTheLimitNamesBothSizes() throws {
        let compact = Self.compactPayload(size: 5000)
        let pretty = compact.replacingOccurrences(of: ":", with: " : ") + "\n"
        let warnings = try Self.payload(pretty).warnings
        #expect(
            warnings == [
                "payload is 5000 bytes as compact JSON (the file is \(pretty.utf8.count) bytes); "
                    + "APNs refuses payloads over 4096 bytes (PayloadTooLarge)"
            ])
    }

    @Test(arguments: [
        (#"{"a":1}"#, 7),
        (" { \"a\" : [ 1 , 2 ] }\n", 11),
        (#"{"a b":"c : d"}"#, 15),
        (#"{"q":"say \" , \\"}"#, 19),
        ("{\"t\":\"\\u0041\"\t}", 14),
        ("\r\n{}\r\n", 2),
    ])
    func theCompactSizeDropsOnlyWhitespaceOutsideStrings(json: String, expected: Int) throws {
        #expect(PayloadSize.compactByteCount(Array(json.utf8)[...]) == expected)
        // What the house's writer makes of the parsed value has the same length when no escape differs.
        let written = JSONWriter.string(try JSONParser.parse(Array(json.utf8)[...]))
        if !json.contains("\\") { #expect(written.utf8.count == expected) }
    }

    @Test(
        arguments: [
            (4096, 4096, nil),
            (4000, 3000, nil),
            (
                4097, 4096,
                "the file is 4097 bytes, over APNs' 4096-byte limit only because of its whitespace: as compact JSON, what a provider sends, it is 4096 bytes, which APNs accepts"
            ),
            (4097, 4097, "payload is 4097 bytes as compact JSON; APNs refuses payloads over 4096 bytes (PayloadTooLarge)"),
            (
                6000, 4097,
                "payload is 4097 bytes as compact JSON (the file is 6000 bytes); APNs refuses payloads over 4096 bytes (PayloadTooLarge)"
            ),
        ] as [(Int, Int, String?)])
    func theSizeWarningFollowsTheCompactSize(fileBytes: Int, compactBytes: Int, expected: String?) {
        #expect(PayloadSize.warning(fileBytes: fileBytes, compactBytes: compactBytes) == expected)
    }

    @Test func duplicateKeysAreWarnedWithTheirPath() throws {
        let payload = try Self.payload(#"{"aps":{"alert":"a","alert":"b"}}"#)
        #expect(payload.warnings.contains { $0.contains("alert") }, "\(payload.warnings)")
    }

    @Test func aByteOrderMarkIsWarned() throws {
        let payload = try Payload(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"aps":{}}"#.utf8))
        #expect(payload.warnings.contains { $0.lowercased().contains("byte order mark") }, "\(payload.warnings)")
    }
}
