/// An image URL that passed validation: absolute, scheme https (any case), a host, no user info.
///
/// Validation is a pure function so that it is decided before any connection and tested from tables.
/// The same rules apply to every redirect's `Location` (``RedirectRule``); libcurl independently
/// refuses non-https schemes on every request.
@_spi(Tooling) public struct ImageURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL text as given (after validation, unchanged).
    public let absoluteString: String
    /// The host, without brackets for IPv6 literals.
    public let host: String

    public var description: String { absoluteString }

    /// Validates `text` as an image URL.
    ///
    /// - Throws: an ``Outcome`` with ``Reason/invalidURL`` or ``Reason/insecureURL`` whose detail says
    ///   what is wrong.
    public init(validating text: String) throws(Outcome) {
        try self.init(validating: text, naming: "image URL")
    }

    /// Validates `text` by the same rules, naming it `label` in the detail (a redirect's `Location`).
    ///
    /// Once the text is known to be printable ASCII its bytes are its Characters, and the rules are
    /// read over them: by Characters the validation took 45,000 instructions a URL, a fifth of a small
    /// image's work beyond libcurl's.
    init(validating text: String, naming label: String) throws(Outcome) {
        func invalid(_ why: String) -> Outcome { Outcome(.invalidURL, "\(label) \(Quoting.single(text)) \(why)") }

        guard !text.isEmpty else { throw Outcome(.invalidURL, "\(label) is an empty string") }
        let bytes = Array(text.utf8)
        // A non-ASCII scalar's bytes are all 0x80 and up: the first control or space byte is the first
        // such scalar.
        if let bad = bytes.first(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw invalid(bad == 0x20 ? "contains a space" : "contains a control character or whitespace")
        }
        if bytes.contains(where: { $0 >= 0x80 }) {
            throw invalid("contains non-ASCII characters (percent-encode them)")
        }
        func part(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw invalid("is not absolute (no scheme)") }
        let scheme = bytes[..<colon]
        let schemeCharacter = { (c: UInt8) -> Bool in
            ImageURL.isLetter(c) || ImageURL.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        }
        let schemeIsValid = scheme.first.map(ImageURL.isLetter) == true && scheme.allSatisfy(schemeCharacter)
        guard schemeIsValid else { throw invalid("is not absolute (no scheme)") }
        let lowered = part(0..<colon).lowercased()
        guard lowered == "https" else {
            throw Outcome(.insecureURL, "\(label) \(Quoting.single(text)) uses scheme '\(lowered)'; only https is allowed")
        }

        guard bytes.count >= colon + 3, bytes[colon + 1] == 0x2F, bytes[colon + 2] == 0x2F else {
            throw invalid("has no host (expected 'https://host/...')")
        }
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
        let authority = bytes[authorityStart..<authorityEnd]
        if authority.contains(0x40) { throw invalid("contains user info before the host") }

        var host: Range<Int>
        var port: Range<Int>?
        if authority.first == 0x5B {
            guard let close = authority.firstIndex(of: 0x5D) else { throw invalid("has an unterminated IPv6 host") }
            host = authorityStart + 1..<close
            if close + 1 < authorityEnd {
                guard bytes[close + 1] == 0x3A else { throw invalid("has characters after the IPv6 host") }
                port = close + 2..<authorityEnd
            }
            guard !host.isEmpty, bytes[host].allSatisfy({ ImageURL.isHexDigit($0) || $0 == 0x3A || $0 == 0x2E }) else {
                throw invalid("has an invalid IPv6 host")
            }
        } else {
            if let portColon = authority.firstIndex(of: 0x3A) {
                host = authorityStart..<portColon
                port = portColon + 1..<authorityEnd
            } else {
                host = authorityStart..<authorityEnd
            }
            let allowed = { (c: UInt8) -> Bool in
                if ImageURL.isLetter(c) || ImageURL.isDigit(c) { return true }
                return c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
                    || c == UInt8(ascii: "%")
            }
            guard !host.isEmpty else { throw invalid("has no host") }
            guard bytes[host].allSatisfy(allowed) else { throw invalid("has an invalid character in the host") }
        }
        if let port, !port.isEmpty {
            // An empty port (`host:`) means the default, as RFC 3986 allows.
            guard bytes[port].allSatisfy(ImageURL.isDigit), port.count <= 5, let number = Int(part(port)), (1...65535).contains(number)
            else { throw invalid("has an invalid port '\(part(port))'") }
        }
        absoluteString = text
        self.host = part(host)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }
}
