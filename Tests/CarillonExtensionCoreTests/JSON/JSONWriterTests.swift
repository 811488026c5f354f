import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The JSON writer's strings: every character that needs an escape, and the runs copied around them.
@Suite struct JSONWriterTests {
    /// The writer as it was, one scalar at a time: the reference the run-copying writer must match.
    static func reference(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    static func written(_ text: String) -> String {
        var output = ""
        JSONWriter.writeString(text, to: &output)
        return output
    }

    @Test(arguments: [
        ("", #""""#),
        ("plain", #""plain""#),
        ("a\"b", #""a\"b""#),
        ("back\\slash", #""back\\slash""#),
        ("line\nbreak\r\n", #""line\nbreak\r\n""#),
        ("\t\u{08}\u{0C}", #""\t\b\f""#),
        ("\u{00}\u{01}\u{1F}\u{7F}", #""\u0000\u0001\u001f\u007f""#),
        ("sep\u{2028}para\u{2029}", #""sep\u2028para\u2029""#),
        // Other characters starting with the byte 0xE2 are written as they are.
        ("€ \u{2027}\u{202A} ✓", "\"€ \u{2027}\u{202A} ✓\""),
        ("/ stays", #""/ stays""#),
        ("é🔔", "\"é🔔\""),
        ("\"", #""\"""#),
        ("end\u{2028}", #""end\u2028""#),
    ])
    func escapes(_ text: String, _ expected: String) {
        #expect(Self.written(text) == expected)
        #expect(Self.written(text) == Self.reference(text))
    }

    /// Plain ASCII is skipped eight bytes at a time: a character that needs an escape (or any byte from
    /// 0x7F up) at each position of those words is still found.
    @Test(arguments: ["\"", "\\", "\n", "\u{01}", "\u{1F}", "\u{7F}", "\u{2028}", "é", "€", " ", "~"])
    func anEscapeAtEachPositionOfAWord(_ special: String) throws {
        for position in 0..<24 {
            var text = String(repeating: "x", count: 24)
            text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
            #expect(Self.written(text) == Self.reference(text), "\(position)")
            #expect(try JSONParser.parse(Array(Self.written(text).utf8)) == .string(text))
        }
    }

    /// The word test never says "plain" for a word holding a byte the byte loop must see, whatever the
    /// byte and its place; a word of printable ASCII other than `"` and `\` is plain.
    @Test func theWordTestMissesNoByteThatMayNeedAnEscape() {
        for byte in 0...255 {
            let mustLook = byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x7F
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 8)
                bytes[position] = UInt8(byte)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                if mustLook { #expect(JSONWriter.mayNeedEscape(word), "byte \(byte) at \(position)") }
                if !mustLook { #expect(!JSONWriter.mayNeedEscape(word), "byte \(byte) at \(position)") }
            }
        }
    }

    @Test func everyMixOfEscapesAndRunsMatchesTheScalarWriter() throws {
        let pieces = ["a", "é", "\"", "\\", "\n", "\u{01}", "\u{7F}", "\u{2028}", "\u{2029}", "€", "🔔", "e\u{301}", "\u{E2}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(Self.written(text) == Self.reference(text), "\(Array(text.unicodeScalars))")
            #expect(try JSONParser.parse(Array(Self.written(text).utf8)) == .string(text))
        }
    }

    /// Writes `value` member by member to `output`, as a writer of a document does.
    static func replay(_ value: JSONValue, to output: inout some JSONOutput, whole: Bool) {
        switch value {
        case .null: output.null()
        case .bool(let flag): output.bool(flag)
        case .number(let text): output.number(text)
        case .string(let text): output.string(text)
        case .array(let elements) where !whole:
            output.beginArray()
            for element in elements { replay(element, to: &output, whole: true) }
            output.endArray()
        case .object(let members) where !whole:
            output.beginObject()
            for member in members {
                output.key(member.key)
                replay(member.value, to: &output, whole: members.count > 2)
            }
            output.endObject()
        case .array, .object: output.value(value)
        }
    }

    /// The text output writes what ``JSONWriter`` writes of the value the builder builds, nested or not,
    /// empty containers, values handed over whole among members written one by one.
    @Test(arguments: [
        JSONValue.null, "a\"b\u{2028}", .number("-1.5e3"), [], [:], [[], [:], [[]]],
        ["a": [1, "x", nil, true, ["b": [:]]], "": "", "k\n": [[1, 2], ["c": false]]],
        ["one": ["two": ["three": [1, 2, 3]]], "x": 7],
    ])
    func theTextOutputWritesWhatTheBuilderBuilds(value: JSONValue) {
        for whole in [false, true] {
            var text = JSONTextOutput(capacity: 0)
            var builder = JSONValueBuilder()
            Self.replay(value, to: &text, whole: whole)
            Self.replay(value, to: &builder, whole: whole)
            #expect(builder.value == value)
            #expect(text.text == JSONWriter.string(value))
        }
        var integers = JSONTextOutput()
        integers.beginArray()
        integers.integer(Int64(-42))
        integers.integer(orNull: nil)
        integers.string(orNull: "s")
        integers.endArray()
        #expect(integers.text == #"[-42,null,"s"]"#)
    }

    /// Integers and milliseconds written as digits straight into the text are the text made as a `String`.
    @Test func numbersWrittenAsDigitsAreTheirText() {
        let times = [0, 7.5, 0.0004, 0.0005, 1234.5678, -3, 12.005, 999.9996, 1e9, 0.01, 0.1, 100, .nan]
        let integers = [0, 1, -1, 9, 10, 100, 1_000_007, Int.max, Int.min]
        var output = JSONTextOutput()
        var builder = JSONValueBuilder()
        output.beginArray()
        builder.beginArray()
        for time in times {
            output.milliseconds(time)
            builder.milliseconds(time)
        }
        for integer in integers {
            output.integer(integer)
            builder.integer(integer)
        }
        output.endArray()
        builder.endArray()
        let expected = times.map { JSONWriter.milliseconds($0) } + integers.map { String($0) }
        #expect(output.text == "[" + expected.joined(separator: ",") + "]")
        #expect(builder.value == .array(expected.map { .number($0) }))
    }
}
