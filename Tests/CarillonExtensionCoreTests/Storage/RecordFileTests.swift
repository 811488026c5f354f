import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The envelope every small record shares (receipts, queued events, the queue's counter): one JSON
/// object, a final newline, a `"format"` version checked first; each refusal names its first problem.
@Suite struct RecordFileTests {
    static func parse(_ text: String, version: Int = 1, maximumBytes: Int = 512) throws(RecordError) -> RecordFile {
        try RecordFile(parsing: Array(text.utf8), version: version, maximumBytes: maximumBytes)
    }

    @Test(arguments: [
        ("", "empty file"),
        ("{\"format\":1,\"id\":\"x\"", "truncated"),
        ("{\"format\":1}", "truncated: no final newline"),
        ("[1]\n", "not a JSON object but array"),
        ("{\"format\":1,\"format\":1}\n", "duplicate member \"format\""),
        ("{\"id\":\"x\"}\n", "no \"format\" version"),
        ("{\"format\":2}\n", "unknown format version 2"),
        ("{\"format\":1.0}\n", "\"format\" 1.0 is not a version number"),
        ("{\"format\":\"1\"}\n", "\"format\" is string, not a number"),
        ("{\"format\":1,}\n", "not valid JSON"),
    ])
    func aBrokenRecordSaysItsFirstProblem(text: String, expected: String) {
        #expect { try Self.parse(text) } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.message.hasPrefix(expected) || error.message.contains(expected)
        }
    }

    @Test func anOversizedRecordIsRefusedUnparsed() {
        #expect(throws: RecordError("600 bytes, more than a record can hold (512)")) {
            try Self.parse(String(repeating: " ", count: 600))
        }
    }

    @Test func membersAreReadTypedAndUnknownOnesIgnored() throws {
        let record = try Self.parse(
            #"{"format":1,"id":"01937B21-0000-7000-8000-000000000001","at":"2026-08-20T09:16:44.120Z","n":42,"extra":[1]}"# + "\n")
        #expect(try record.deliveryID("id").rawValue == "01937b21-0000-7000-8000-000000000001")
        #expect(try record.timestamp("at") == Timestamp(iso8601: "2026-08-20T09:16:44.120Z"))
        #expect(try record.count("n") == 42)
        #expect(throws: RecordError.self) { try record.string("missing") }
        #expect(throws: RecordError.self) { try record.count("id") }
    }

    @Test func whatIsEncodedParsesBack() throws {
        let bytes = RecordFile.encode(version: 3, [(key: "name", value: .string("a\"b")), (key: "n", value: .number("7"))])
        #expect(bytes.last == UInt8(ascii: "\n"))
        let record = try RecordFile(parsing: bytes, version: 3, maximumBytes: 512)
        #expect(try record.string("name") == "a\"b")
        #expect(try record.count("n") == 7)
    }
}
