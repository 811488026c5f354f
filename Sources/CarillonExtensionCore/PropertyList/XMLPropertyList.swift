/// An XML property list (Apple's `PropertyList-1.0.dtd`) read by hand, with no XML library: the prolog,
/// comments and the document type are skipped (an internal subset is never interpreted, so no entity of
/// the file's own is ever expanded); the elements are the DTD's, text takes the five predefined entities,
/// character references and CDATA sections; nesting and the number of values are bounded.
struct XMLPropertyList {
    let bytes: [UInt8]
    let reader: PropertyListReader
    private var index = 0
    private var decoded = 0

    init(bytes: [UInt8], reader: PropertyListReader) {
        self.bytes = bytes
        self.reader = reader
    }

    /// An element's opening tag.
    private struct Tag {
        var name: String
        /// `<name/>`: no content, no closing tag.
        var empty: Bool
    }

    /// The error at the current position, with its line.
    private func failure(_ what: String) -> PropertyListError {
        let line = 1 + bytes[..<min(index, bytes.count)].lazy.filter { $0 == 0x0A }.count
        return PropertyListError("XML property list, line \(line): \(what)")
    }

    /// The document: the prolog, `<plist>` (optional, as Apple's reader allows) around one value, then
    /// nothing but white space, comments and processing instructions.
    mutating func document() throws(PropertyListError) -> PropertyListValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipMisc()
        let first = try openTag()
        let value: PropertyListValue
        if first.name == "plist" {
            guard !first.empty else { throw failure("an empty <plist/>") }
            try skipMisc()
            value = try element(try openTag(), depth: 1)
            try skipMisc()
            try closeTag("plist")
        } else {
            value = try element(first, depth: 1)
        }
        try skipMisc()
        guard index == bytes.count else { throw failure("content after the property list") }
        return value
    }

    // MARK: - Elements

    private mutating func element(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListValue {
        decoded += 1
        guard decoded <= reader.maximumValues else { throw failure("more than \(reader.maximumValues) values") }
        switch tag.name {
        case "dict", "array":
            guard depth <= reader.maximumDepth else { throw failure("nested deeper than \(reader.maximumDepth) levels") }
            if tag.empty { return tag.name == "dict" ? .dictionary([]) : .array([]) }
            return tag.name == "dict" ? try dictionary(depth: depth) : .array(try array(depth: depth))
        case "true", "false":
            if !tag.empty { try closeTag(tag.name) }
            return .bool(tag.name == "true")
        case "string": return .string(try text(tag))
        case "integer": return .integer(try integer(try text(tag)))
        case "real": return .real(try real(try text(tag)))
        case "date":
            let text = try text(tag).trimmingXMLSpace
            guard let date = Timestamp(iso8601: text) else { throw failure("a <date> that is not ISO 8601: \(quoted(text))") }
            return .date(date)
        case "data":
            let encoded = try text(tag)
            guard let data = try? Base64.decode(encoded) else { throw failure("a <data> that is not base64") }
            return .data(data)
        case "key": throw failure("a <key> outside a <dict>")
        default: throw failure("an unknown element <\(tag.name)>")
        }
    }

    private mutating func dictionary(depth: Int) throws(PropertyListError) -> PropertyListValue {
        var members: [(key: String, value: PropertyListValue)] = []
        while true {
            try skipMisc()
            if try atCloseTag("dict") { return .dictionary(members) }
            let keyTag = try openTag()
            guard keyTag.name == "key" else { throw failure("a <\(keyTag.name)> where a <dict> needs a <key>") }
            let key = try text(keyTag)
            try skipMisc()
            guard !(try atCloseTag("dict")) else { throw failure("the <key> \(quoted(key)) has no value") }
            members.append((key, try element(try openTag(), depth: depth + 1)))
        }
    }

    private mutating func array(depth: Int) throws(PropertyListError) -> [PropertyListValue] {
        var elements: [PropertyListValue] = []
        while true {
            try skipMisc()
            if try atCloseTag("array") { return elements }
            elements.append(try element(try openTag(), depth: depth + 1))
        }
    }

    // MARK: - Tags

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
            || byte == 0x2D || byte == 0x2E || byte == 0x3A
    }

    private func starts(with text: String, at offset: Int) -> Bool {
        let pattern = Array(text.utf8)
        return offset + pattern.count <= bytes.count && bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    /// `<name attributes>` or `<name attributes/>` at the current position.
    private mutating func openTag() throws(PropertyListError) -> Tag {
        guard index < bytes.count else { throw failure("the file ends where an element was expected") }
        guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, Self.isNameByte(bytes[index + 1]) else {
            throw failure("text where an element was expected")
        }
        index += 1
        let nameStart = index
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        // Attributes (`version="1.0"`) are skipped; a quoted value may hold '>'.
        while let byte = nextUnquoted() {
            if byte == UInt8(ascii: ">") { return Tag(name: name, empty: bytes[index - 2] == UInt8(ascii: "/")) }
            if byte == UInt8(ascii: "<") { break }
        }
        throw failure("the tag <\(name) is not closed")
    }

    /// Whether `</name>` is at the current position; it is consumed if so. Another closing tag is an error.
    private mutating func atCloseTag(_ name: String) throws(PropertyListError) -> Bool {
        guard starts(with: "</", at: index) else { return false }
        try closeTag(name)
        return true
    }

    /// `</name>`, with optional white space before the `>`.
    private mutating func closeTag(_ name: String) throws(PropertyListError) {
        let tag = "</" + name
        guard starts(with: tag, at: index) else {
            let found = starts(with: "</", at: index) ? "another closing tag" : "something else"
            throw failure("\(found) where </\(name)> was expected")
        }
        var end = index + tag.utf8.count
        while end < bytes.count, Self.isSpace(bytes[end]) { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ">") else { throw failure("</\(name) is not closed") }
        index = end + 1
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// White space, comments, processing instructions and the document type declaration.
    private mutating func skipMisc() throws(PropertyListError) {
        while index < bytes.count {
            if Self.isSpace(bytes[index]) {
                index += 1
            } else if starts(with: "<?", at: index) {
                try skip(past: "?>", after: 2, what: "processing instruction")
            } else if starts(with: "<!--", at: index) {
                try skip(past: "-->", after: 4, what: "comment")
            } else if starts(with: "<!DOCTYPE", at: index) {
                try skipDocumentType()
            } else {
                return
            }
        }
    }

    /// Moves past the first `end` that starts `after` bytes or more from the current position.
    private mutating func skip(past end: String, after opener: Int, what: String) throws(PropertyListError) {
        let pattern = Array(end.utf8)
        var probe = index + opener
        while probe + pattern.count <= bytes.count {
            if bytes[probe..<(probe + pattern.count)].elementsEqual(pattern) {
                index = probe + pattern.count
                return
            }
            probe += 1
        }
        throw failure("a \(what) that is not closed")
    }

    /// `<!DOCTYPE …>`, an internal subset `[…]` skipped unread (its entities are never defined here).
    private mutating func skipDocumentType() throws(PropertyListError) {
        var inSubset = false
        while let byte = nextUnquoted() {
            if byte == UInt8(ascii: "[") {
                inSubset = true
            } else if byte == UInt8(ascii: "]") {
                inSubset = false
            } else if byte == UInt8(ascii: ">"), !inSubset {
                return
            }
        }
        throw failure("a <!DOCTYPE that is not closed")
    }

    /// The next byte outside a quoted value (`"…"` or `'…'`, skipped whole, as a tag's attributes and a
    /// document type's literals are), the position after it; nil at the end (an unclosed quote runs to it).
    private mutating func nextUnquoted() -> UInt8? {
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else { return byte }
            while index < bytes.count, bytes[index] != byte { index += 1 }
            index = min(index + 1, bytes.count)
        }
        return nil
    }

    // MARK: - Text

    /// The text of `tag` up to its closing tag: entities and character references decoded, CDATA
    /// sections taken as they are, comments dropped; the bytes must be UTF-8.
    private mutating func text(_ tag: Tag) throws(PropertyListError) -> String {
        if tag.empty { return "" }
        var content: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("the file ends inside <\(tag.name)>") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if starts(with: "<![CDATA[", at: index) {
                    let start = index + 9
                    try skip(past: "]]>", after: 9, what: "CDATA section")
                    content += bytes[start..<(index - 3)]
                } else if starts(with: "<!--", at: index) {
                    try skip(past: "-->", after: 4, what: "comment")
                } else {
                    try closeTag(tag.name)
                    break
                }
            } else if byte == UInt8(ascii: "&") {
                content += try reference()
            } else {
                content.append(byte)
                index += 1
            }
        }
        guard let text = String(validating: content, as: UTF8.self) else { throw failure("<\(tag.name)> text that is not UTF-8") }
        return text
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xH;` at the current position, as UTF-8 bytes.
    private mutating func reference() throws(PropertyListError) -> [UInt8] {
        var end = index + 1
        while end < bytes.count, end - index <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw failure("an '&' that starts no entity") }
        let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
        index = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw failure("an unknown entity &\(name);") }
            digits = digits.dropFirst()
            let radix = digits.first == "x" ? 16 : 10
            if radix == 16 { digits = digits.dropFirst() }
            guard !digits.isEmpty, let code = UInt32(digits, radix: radix), code != 0, let scalar = Unicode.Scalar(code) else {
                throw failure("a character reference &\(name); that names no character")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private func quoted(_ text: String) -> String { "'" + String(text.prefix(40)) + (text.count > 40 ? "…'" : "'") }

    /// `<integer>`'s text: optional sign, then decimal digits or `0x` and hex digits, within Int64.
    private func integer(_ raw: String) throws(PropertyListError) -> Int64 {
        var text = Substring(raw.trimmingXMLSpace)
        var negative = false
        if let sign = text.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            text = text.dropFirst()
        }
        var radix: UInt64 = 10
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            radix = 16
            text = text.dropFirst(2)
        }
        var magnitude: UInt64 = 0
        guard !text.isEmpty else { throw failure("an <integer> with no digits") }
        for character in text {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else { throw failure("an <integer> \(quoted(raw))") }
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, carry) = times.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { throw failure("an <integer> outside 64-bit range: \(quoted(raw))") }
            magnitude = sum
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw failure("an <integer> outside 64-bit range: \(quoted(raw))") }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw failure("an <integer> outside 64-bit signed range: \(quoted(raw))") }
        return Int64(magnitude)
    }

    private func real(_ raw: String) throws(PropertyListError) -> Double {
        let text = raw.trimmingXMLSpace
        guard !text.isEmpty, let value = Double(text) else { throw failure("a <real> \(quoted(raw))") }
        return value
    }
}

extension String {
    /// The text without the XML white space (space, tab, CR, LF) around it.
    fileprivate var trimmingXMLSpace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
