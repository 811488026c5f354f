/// Writes ``JSONValue``s as compact JSON text: members in order, numbers as their original text,
/// strings escaped as RFC 8259 requires (and `/` left alone).
///
/// The text is built as UTF-8 bytes and made a `String` once, rather than appended to a `String` piece
/// by piece: it is written for every payload (TestAssets/Bench/README.md, "Measurements behind the code").
@_spi(Tooling) public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        // A process line with its trace is about 1.3 KB: room for it at once, not grown twice.
        bytes.reserveCapacity(2048)
        write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Milliseconds with three decimals, as JSON number text ("12.005"; never negative): how the line and
    /// a recording write times.
    package static func milliseconds(_ value: Double) -> String {
        let thousandths = Int((max(0, value) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    public static func write(_ value: JSONValue, to output: inout String) {
        output += string(value)
    }

    /// Appends `text` as a quoted JSON string.
    static func writeString(_ text: String, to output: inout String) {
        var bytes: [UInt8] = []
        writeString(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(var text): text.withUTF8 { bytes.append(contentsOf: $0) }
        case .string(let text): writeString(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(member.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `text` as a quoted JSON string: its UTF-8 is copied in runs, and only the characters
    /// that need an escape are written one by one.
    static func writeString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                // Eight plain ASCII bytes at a time (one test a word; byte by byte this was 15
                // instructions a byte of every result line).
                if utf8.count - index >= 8,
                    !mayNeedEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                // Every byte that may start an escape: controls, `"`, `\`, DEL, and 0xE2 (U+2028, U+2029).
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2,
                    let (escape, length) = escapeSequence(utf8, at: index)
                else {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(contentsOf: escape.utf8)
                index += length
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// False when no byte of `word` can start an escape: none is below 0x20, `"`, `\`, 0x7F or above (a
    /// true answer may be wrong, and the bytes are then looked at one by one).
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let anyQuote = (quote &- ones) & ~quote
        let anyBackslash = (backslash &- ones) & ~backslash
        let anyControl = (word &- ones &* 0x20) & ~word
        let anyDeleteOrHigh = word | (word &+ ones)
        return (anyQuote | anyBackslash | anyControl | anyDeleteOrHigh) & highs != 0
    }

    /// The escape for the character at `index` and its length in bytes; nil when it is written as it
    /// is (an 0xE2 that starts neither U+2028 nor U+2029).
    private static func escapeSequence(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (String, Int)? {
        switch utf8[index] {
        case 0x22: return ("\\\"", 1)
        case 0x5C: return ("\\\\", 1)
        case 0x0A: return ("\\n", 1)
        case 0x0D: return ("\\r", 1)
        case 0x09: return ("\\t", 1)
        case 0x08: return ("\\b", 1)
        case 0x0C: return ("\\f", 1)
        case 0xE2:
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            guard index + 2 < utf8.count, utf8[index + 1] == 0x80, utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9 else {
                return nil
            }
            return (utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", 3)
        case let byte:
            let hex = String(byte, radix: 16)
            return ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, 1)
        }
    }
}
