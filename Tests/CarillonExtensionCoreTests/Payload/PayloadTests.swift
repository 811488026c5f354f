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

    @Test func duplicateKeysAreWarnedWithTheirPath() throws {
        let payload = try Self.payload(#"{"aps":{"alert":"a","alert":"b"}}"#)
        #expect(payload.warnings.contains { $0.contains("alert") }, "\(payload.warnings)")
    }

    @Test func aByteOrderMarkIsWarned() throws {
        let payload = try Payload(bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"aps":{}}"#.utf8))
        #expect(payload.warnings.contains { $0.lowercased().contains("byte order mark") }, "\(payload.warnings)")
    }
}
