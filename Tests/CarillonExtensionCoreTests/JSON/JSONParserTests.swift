import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct JSONParserTests {
    @Test(
        arguments: [
            ("{}", JSONValue.object([])),
            ("[]", .array([])),
            (" \n\t{\"a\" : 1 } \r\n", ["a": 1]),
            ("\"\\u00e9\\ud83d\\ude00\\n\"", .string("é😀\n")),
            ("[1, -0, 2.5e10, -1E-3, 0.0]", .array([.number("1"), .number("-0"), .number("2.5e10"), .number("-1E-3"), .number("0.0")])),
            ("[true,false,null]", [true, false, nil]),
            ("{\"a\":1,\"a\":2}", .object([(key: "a", value: 1), (key: "a", value: 2)])),
            ("\"é\"", .string("é")),
        ] as [(String, JSONValue)])
    func parsesValidDocuments(text: String, expected: JSONValue) throws {
        #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        ("", "unexpected end of input"),
        ("{", "unexpected end of input inside an object"),
        ("{\"a\":1,}", "expected a member name"),
        ("[1,]", "expected a value"),
        ("{'a':1}", "expected a member name in double quotes"),
        ("01", "leading zero"),
        ("1.", "expected a digit after '.'"),
        ("1e", "expected a digit in the exponent"),
        ("-", "expected a digit"),
        ("+1", "unexpected '+'"),
        ("NaN", "unexpected 'N'"),
        ("tru", "invalid literal"),
        ("\"abc", "unterminated string"),
        ("\"a\tb\"", "unescaped control character"),
        ("\"\\x\"", "invalid escape"),
        ("\"\\ud800\"", "unpaired surrogate"),
        ("\"\\udc00\"", "unpaired surrogate"),
        ("\"\\u12g4\"", "not a hex digit"),
        ("{} {}", "unexpected data after the JSON value"),
        ("{\"a\" 1}", "expected ':'"),
    ])
    func rejectsInvalidDocuments(text: String, message: String) {
        #expect {
            try JSONParser.parse(Array(text.utf8))
        } throws: { error in
            (error as? JSONParser.SyntaxError)?.message.contains(message) == true
        }
    }

    @Test func rejectsInvalidUTF8WithItsOffset() {
        let bytes: [UInt8] = Array("{\"a\":\"x".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(throws: JSONParser.SyntaxError(offset: 7, line: 1, column: 8, message: "invalid UTF-8 in a string")) {
            try JSONParser.parse(bytes)
        }
    }

    /// A run of ASCII becomes its string without validation; a run with any other byte is validated,
    /// wherever in it (and wherever in its eight-byte words) that byte is.
    @Test(arguments: 0..<20)
    func aNonASCIIByteAnywhereInARunIsValidated(at position: Int) throws {
        let ascii = Array("0123456789abcdefghij".utf8)
        var valid = ascii
        valid.replaceSubrange(position..<position + 1, with: Array("é".utf8))
        #expect(try JSONParser.parse([0x22] + valid + [0x22]) == .string(String(decoding: valid, as: UTF8.self)))
        var invalid = ascii
        invalid[position] = 0xC3
        invalid.insert(0x28, at: position + 1)
        #expect(throws: JSONParser.SyntaxError(offset: 1 + position, line: 1, column: 2 + position, message: "invalid UTF-8 in a string")) {
            try JSONParser.parse([0x22] + invalid + [0x22])
        }
    }

    @Test func reportsLineAndColumn() {
        #expect(throws: JSONParser.SyntaxError(offset: 9, line: 3, column: 3, message: "unexpected ']', expected a value")) {
            try JSONParser.parse(Array("{\n\"a\":\n  ]".utf8))
        }
    }

    @Test func boundsNesting() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONParser.parse(Array(ok.utf8))
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(deep.utf8)) }
        let deepObjects = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        #expect {
            try JSONParser.parse(Array(deepObjects.utf8))
        } throws: { ($0 as? JSONParser.SyntaxError)?.message == "nested deeper than 512 levels" }
    }

    @Test func keepsAbsurdNumbersAsText() throws {
        let value = try JSONParser.parse(Array("[1e999999, 123456789012345678901234567890]".utf8))
        guard case .array(let numbers) = value else {
            Issue.record("not an array")
            return
        }
        #expect(numbers[0] == .number("1e999999"))
        #expect(numbers[0].doubleValue == .infinity)
        #expect(numbers[1] == .number("123456789012345678901234567890"))
    }

    @Test func writerRoundTripsParsedDocuments() throws {
        let text = #"{"aps":{"alert":{"title":"Hi \"you\"","body":"line\nbreak\u0001"},"mutable-content":1},"z":[1.50,null,true]}"#
        let value = try JSONParser.parse(Array(text.utf8))
        let written = JSONWriter.string(value)
        #expect(try JSONParser.parse(Array(written.utf8)) == value)
        #expect(written.contains(#""body":"line\nbreak\u0001""#))
        #expect(written.contains("1.50"))
    }

    /// Strings are read eight bytes at a time until a quote, backslash or control character: each such
    /// byte, at every offset of a word and past the last whole word, ends the run exactly where the byte
    /// by byte reading would, and every other ASCII byte is taken as it is.
    @Test func everyByteEndsAStringRunWhereItIs() throws {
        for byte in UInt8(0)..<0x80 {
            for offset in 0..<19 {
                let content =
                    Array(repeating: UInt8(ascii: "a"), count: offset) + [byte] + Array(repeating: UInt8(ascii: "c"), count: 18 - offset)
                let document = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
                let result = Result { () throws(JSONParser.SyntaxError) in try JSONParser.parse(document) }
                switch byte {
                case UInt8(ascii: "\""):
                    #expect(throws: JSONParser.SyntaxError.self) { try result.get() }
                    #expect((try? JSONParser.parse(document.prefix(offset + 2))) == .string(String(repeating: "a", count: offset)))
                case UInt8(ascii: "\\"):
                    let message = offset == 18 ? "unterminated string" : "invalid escape"
                    #expect(result.failureMessage?.contains(message) == true, "byte \(byte) at \(offset)")
                case ..<0x20:
                    #expect(result.failureMessage?.hasPrefix("unescaped control character") == true, "byte \(byte) at \(offset)")
                    if case .failure(let error) = result { #expect(error.offset == offset + 1) }
                default:
                    #expect(try result.get() == .string(String(decoding: content, as: UTF8.self)), "byte \(byte) at \(offset)")
                }
            }
        }
    }

    /// A slice is read in place and means what the same bytes in an array of their own mean.
    @Test func parsesASliceAsItsOwnBytes() throws {
        let bytes = Array("xx{\"a\":\"long enough to be read by words\"}yy".utf8)
        let slice = bytes[2..<(bytes.count - 2)]
        #expect(try JSONParser.parse(slice) == JSONParser.parse(Array(slice)))
        #expect(try JSONParser.parse(slice)["a"] == .string("long enough to be read by words"))
        #expect(throws: JSONParser.SyntaxError(offset: 0, line: 1, column: 1, message: "unexpected 'x', expected a value")) {
            try JSONParser.parse(bytes[0..<4])
        }
    }

    @Test func lastDuplicateKeyWinsInLookups() throws {
        let value = try JSONParser.parse(Array(#"{"a":1,"a":2}"#.utf8))
        #expect(value["a"] == 2)
    }
}

extension Result where Failure == JSONParser.SyntaxError {
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
