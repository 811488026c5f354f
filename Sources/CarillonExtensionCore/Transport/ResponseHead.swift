/// The status line and header fields of one HTTP response, collected line by line from libcurl's
/// header callback (what a download does with it is ``disposition(cap:)``, the download's rule).
struct ResponseHead: Sendable, Equatable {
    /// The status line as received, without its line ending.
    var statusLine = ""
    /// The status code (0 until a status line was read).
    var status = 0
    var fields: [HTTPField] = []
    /// The blank line after the fields arrived; any line after it is a trailer and is ignored.
    var isComplete = false

    /// Adds one line as libcurl hands it over (with its CR LF). Returns true when this line completed
    /// the head of a final (non-1xx) response.
    ///
    /// The ASCII the syntax is made of (CR LF, `:`, spaces, tabs) is found in the UTF-8 rather than by
    /// `Character`s, which cost far more (TestAssets/Bench/README.md, "Measurements behind the code").
    mutating func add(line raw: Substring) -> Bool {
        guard !isComplete else { return false }
        var line = raw
        while let last = line.utf8.last, last == 0x0A || last == 0x0D { line = line.dropLastByte() }
        // Any other line ending (VT, FF, NEL, U+2028...): only a last byte of 0x0B, 0x0C or above 0x7F
        // can end one, so an ordinary line skips the Character that costs.
        while let byte = line.utf8.last, byte == 0x0B || byte == 0x0C || byte >= 0x80, let last = line.last, last.isNewline {
            line = line.dropLast()
        }
        if statusLine.isEmpty {
            statusLine = String(line)
            status = ResponseHead.statusCode(statusLine) ?? 0
            return false
        }
        if line.isEmpty {
            // An interim 1xx response (100 Continue, 103 Early Hints) is followed by the real one.
            if (100..<200).contains(status) && status != 101 {
                self = ResponseHead()
                return false
            }
            isComplete = true
            return true
        }
        if let byte = line.utf8.first, byte == 0x20 || byte == 0x09, let first = line.first, first == " " || first == "\t",
            !fields.isEmpty
        {
            // Obsolete line folding: a continuation of the previous field.
            fields[fields.count - 1].value += " " + line.trimmed()
            return false
        }
        guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        fields.append(HTTPField(name: String(line[..<colon]), value: String(line[line.index(after: colon)...].trimmed())))
        return false
    }

    /// "HTTP/1.1 200 OK" → 200; nil when the line is not an HTTP status line.
    static func statusCode(_ line: String) -> Int? {
        if let code = asciiStatusCode(line) { return code }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        return Int(parts[1])
    }

    /// ``statusCode(_:)`` read over the bytes of a line of ASCII without CR, whose bytes are its
    /// Characters (splitting it by Characters was 13,000 instructions a response); nil (not `.some(nil)`)
    /// for any other line, which the Character rules read.
    static func asciiStatusCode(_ line: String) -> Int?? {
        var line = line
        return line.withUTF8 { bytes -> Int?? in
            guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
            let space = bytes.firstIndex(of: 0x20) ?? bytes.count
            let code = bytes[min(space + 1, bytes.count)...].prefix { $0 != 0x20 }
            guard space >= 5, bytes.starts(with: Array("HTTP/".utf8)), space < bytes.count, code.count == 3,
                code.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return .some(nil) }
            return .some(code.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
    }

    /// Every value of every field called `name` (case-insensitive), in order.
    func values(_ name: String) -> [String] {
        // An ASCII name (every caller's) is compared byte by byte, folded, without lowercasing it first.
        let wanted = name.utf8.allSatisfy({ $0 < 0x80 }) ? nil : name.lowercased()
        var found: [String] = []
        for field in fields
        where wanted.map({ ResponseHead.sameName(field.name, lowercased: $0) }) ?? ResponseHead.sameName(field.name, ascii: name) {
            found.append(field.value)
        }
        return found
    }

    /// Whether `name` lowercased is `ascii` lowercased, for an `ascii` of ASCII only.
    ///
    /// Over the two names' contiguous UTF-8 (iterating `utf8` views with `zip` was 500 instructions a field).
    static func sameName(_ name: String, ascii: String) -> Bool {
        var name = name
        var ascii = ascii
        let same = name.withUTF8 { bytes in
            ascii.withUTF8 { wanted -> Bool? in
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
                guard bytes.count == wanted.count else { return false }
                func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
                for index in 0..<bytes.count where folded(bytes[index]) != folded(wanted[index]) { return false }
                return true
            }
        }
        return same ?? (name.lowercased() == ascii.lowercased())
    }

    /// Whether `name` lowercased is `wanted`: byte by byte for ASCII names (all real ones), by
    /// `lowercased()` otherwise (where a character such as the Kelvin sign lowercases to ASCII).
    static func sameName(_ name: String, lowercased wanted: String) -> Bool {
        let bytes = name.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return name.lowercased() == wanted }
        guard bytes.count == wanted.utf8.count else { return false }
        return zip(bytes, wanted.utf8).allSatisfy { byte, other in
            (byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) == other
        }
    }

    /// The elements of a comma-separated list field over all its occurrences (RFC 9110 §5.6.1: empty
    /// elements do not count).
    func listElements(_ name: String) -> [String] {
        values(name).flatMap { value in
            ResponseHead.asciiListElements(value) ?? value.split(separator: ",").map { String($0.trimmed()) }.filter { !$0.isEmpty }
        }
    }

    /// ``listElements(_:)``'s elements of one value of ASCII, whose bytes are its Characters (splitting by
    /// Characters cost thousands of instructions a field); nil for any other value, which the Character
    /// rules read (a comma followed by a combining mark is not a separator).
    static func asciiListElements(_ value: String) -> [String]? {
        var value = value
        return value.withUTF8 { bytes -> [String]? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var elements: [String] = []
            for piece in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                var start = piece.startIndex
                var end = piece.endIndex
                while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
                while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
                if start < end { elements.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) }
            }
            return elements
        }
    }

    /// The first `Location` value, if any.
    var location: String? { values("Location").first }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmed() -> Substring {
        // Only a space or tab byte at an end can make a space or tab Character there: most values have
        // neither, and skip the Characters.
        func blank(_ byte: UInt8?) -> Bool { byte == 0x20 || byte == 0x09 }
        guard blank(utf8.first) || blank(utf8.last) else { return self }
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }

    /// Without its last UTF-8 byte, which must be ASCII (so the cut is between characters' scalars).
    fileprivate func dropLastByte() -> Substring {
        self[..<utf8.index(before: utf8.endIndex)]
    }
}
