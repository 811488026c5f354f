/// How text that strangers wrote appears to a person: quoted and shortened in a message, and shown by
/// one escaping rule wherever it reaches a terminal.
///
/// **The rule** (``display(_:)``), for every human-facing string a tool writes — a text-format result,
/// every message and warning on standard error, the run summary:
///
/// | Characters                                                   | Shown as     |
/// |--------------------------------------------------------------|--------------|
/// | C0 controls U+0000–U+001F (tab, newline, ESC, BEL, CR...)    | `\xNN`       |
/// | DEL U+007F                                                   | `\x7F`       |
/// | a byte of a file name that is not UTF-8 (``FileName``)       | `\xNN`       |
/// | C1 controls U+0080–U+009F                                    | `\u{NNNN}`   |
/// | bidi controls U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069 | `\u{NNNN}` |
///
/// Everything else is shown as it is. The only control character that reaches the terminal is the
/// newline that ends a line the tool writes: a value's own newline is `\x0A`, so a payload cannot
/// forge a line, move the cursor (CR, ESC sequences, CSI U+009B), ring the bell, set the window title,
/// or reorder the line around it (bidi overrides and isolates). The rule's output holds none of
/// those characters, so showing it again changes nothing. JSON output does not use it: JSON escaping
/// carries every character exactly. The HTML report has its own form of the same rule
/// (`HTMLEscaping`, `<bdi>`).
@_spi(Tooling) public enum Quoting {
    static let limit = 200

    /// `'text'`, shortened to `limit` characters with an ellipsis.
    static func single(_ text: String, limit: Int = limit) -> String { "'" + shortened(text, limit) + "'" }

    /// `"text"` written as a JSON string (control characters escaped), shortened likewise.
    static func double(_ text: String, limit: Int = limit) -> String {
        JSONWriter.string(.string(shortened(text, limit)))
    }

    private static func shortened(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }

    /// `text` as a person may see it on a terminal, by the rule above; the text itself when nothing
    /// in it needs escaping (the common case costs one pass over its UTF-8, allocating nothing).
    public static func display(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars { append(scalar, to: &result) }
        return result
    }

    /// Whether ``display(_:)`` changes `text`.
    public static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Every character the rule escapes is an ASCII control, or starts with C2 (C1), D8 (U+061C),
            // E2 (U+200E… U+2069) or F4 (a byte that is not UTF-8): only those look further.
            for index in bytes.indices {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F { return true }
                guard byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xF4 else { continue }
                if escapedAt(bytes, index) { return true }
            }
            return false
        }
    }

    /// Whether the multi-byte character starting at `index` is one the rule escapes.
    private static func escapedAt(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        func at(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        switch bytes[index] {
        case 0xC2: return (0x80...0x9F).contains(at(1))
        case 0xD8: return at(1) == 0x9C
        case 0xE2:
            guard at(1) == 0x80 || at(1) == 0x81 else { return false }
            let scalar = 0x2000 + (UInt32(at(1) & 0x3F) << 6) + UInt32(at(2) & 0x3F)
            return isBidiControl(scalar)
        default: return at(1) == 0x8F && (at(2) == 0xBE || at(2) == 0xBF)
        }
    }

    /// U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: the controls that reorder text around them.
    static func isBidiControl(_ value: UInt32) -> Bool {
        value == 0x061C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// Appends one scalar as the rule shows it.
    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        let value = scalar.value
        if let byte = FileName.escapedByte(scalar) {
            result += "\\x" + hex(UInt32(byte), digits: 2)
        } else if value < 0x20 || value == 0x7F {
            result += "\\x" + hex(value, digits: 2)
        } else if (0x80...0x9F).contains(value) || isBidiControl(value) {
            result += "\\u{" + hex(value, digits: 4) + "}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    /// `value` in upper-case hexadecimal, zero-padded to `digits`.
    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
