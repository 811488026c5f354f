/// Text made safe for HTML: everything a payload, a path or a server sends reaches the report through
/// here, so a title holding `<script>` shows as those characters and never becomes markup.
enum HTMLEscaping {
    /// `text` for an element's content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` become
    /// character references; control characters other than tab and newline become U+FFFD (HTML has no
    /// way to write them).
    static func escape(_ text: String) -> String {
        var needed = false
        for byte in text.utf8
        where byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0x7F
        {
            needed = true
            break
        }
        guard needed else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
