/// Writes ``JSONValue``s as compact JSON text: members in order, numbers as their original text,
/// strings escaped as RFC 8259 requires (and `/` left alone).
@_spi(Tooling) public enum JSONWriter {
    public static func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    public static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): writeString(text, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                writeString(member.key, to: &output)
                output += ":"
                write(member.value, to: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a quoted JSON string.
    ///
    /// The text is scanned as UTF-8 and copied in runs: only the characters that need an escape are
    /// written one by one. (Appending scalar by scalar made the result line of `process` cost about
    /// 300,000 instructions; it is written for every payload.)
    public static func writeString(_ text: String, to output: inout String) {
        output += "\""
        let bytes = text.utf8
        var runStart = bytes.startIndex
        var index = runStart
        while index != bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            // Every byte that may start an escape: controls, `"`, `\`, DEL, and 0xE2 (U+2028, U+2029).
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 else {
                index = next
                continue
            }
            let (escape, end) = escapeSequence(bytes, byte: byte, next: next)
            guard let escape else {
                index = next
                continue
            }
            output += text[runStart..<index]
            output += escape
            index = end
            runStart = end
        }
        output += text[runStart..<bytes.endIndex]
        output += "\""
    }

    /// The escape for the character that starts with `byte` (the one before `next`), and where that
    /// character ends; nil when it is written as it is (an 0xE2 that starts neither U+2028 nor U+2029).
    private static func escapeSequence(_ bytes: String.UTF8View, byte: UInt8, next: String.Index)
        -> (String?, String.Index)
    {
        switch byte {
        case 0x22: return ("\\\"", next)
        case 0x5C: return ("\\\\", next)
        case 0x0A: return ("\\n", next)
        case 0x0D: return ("\\r", next)
        case 0x09: return ("\\t", next)
        case 0x08: return ("\\b", next)
        case 0x0C: return ("\\f", next)
        case 0xE2:
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            guard next != bytes.endIndex, bytes[next] == 0x80 else { return (nil, next) }
            let third = bytes.index(after: next)
            guard third != bytes.endIndex, bytes[third] == 0xA8 || bytes[third] == 0xA9 else { return (nil, next) }
            return (bytes[third] == 0xA8 ? "\\u2028" : "\\u2029", bytes.index(after: third))
        default:
            let hex = String(byte, radix: 16)
            return ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex, next)
        }
    }
}
