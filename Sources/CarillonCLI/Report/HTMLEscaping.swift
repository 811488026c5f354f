@_spi(Tooling) import CarillonExtensionCore

/// Text made safe for HTML: everything a payload, a path or a server sends reaches the report through
/// here, so a title holding `<script>` shows as those characters and never becomes markup.
///
/// The report's form of the escaping rule (``Quoting/display(_:)`` is the terminal's): C0 controls
/// other than tab and newline, DEL and C1 controls (U+0080–U+009F) become U+FFFD, as HTML has no way
/// to write them; and every text a stranger wrote is isolated in a `<bdi>` element (``isolated(_:)``),
/// so that a bidi control in it (U+202E, U+2066–U+2069...) reorders nothing of the card around it.
/// The tool's own messages, which quote stranger text among the tool's words, show their controls by
/// the terminal's rule (``message(_:)``): a right-to-left override inside a quoted delivery id would
/// otherwise reverse the words that follow it in the same sentence.
enum HTMLEscaping {
    /// `text` for an element's content or a quoted attribute value: `&`, `<`, `>`, `"` and `'` become
    /// character references; control characters (C0 other than tab and newline, DEL, C1) become U+FFFD.
    static func escape(_ text: String) -> String {
        var needed = false
        for byte in text.utf8
        where byte < 0x20 || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == 0x7F || byte == 0xC2
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
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Text a stranger wrote (a title, a body, a path, a delivery id, a URL) as element content:
    /// escaped, inside `<bdi>` so that its direction and its bidi controls stay inside it.
    static func isolated(_ text: String) -> String { "<bdi>" + escape(text) + "</bdi>" }

    /// One of the tool's messages (a detail, a warning) as element content: its control characters
    /// shown by ``Quoting/display(_:)``, escaped, isolated.
    static func message(_ text: String) -> String { isolated(Quoting.display(text)) }
}
