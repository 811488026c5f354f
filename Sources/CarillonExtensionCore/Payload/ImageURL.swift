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
    init(validating text: String, naming label: String) throws(Outcome) {
        func invalid(_ why: String) -> Outcome { Outcome(.invalidURL, "\(label) \(Quoting.single(text)) \(why)") }

        guard !text.isEmpty else { throw Outcome(.invalidURL, "\(label) is an empty string") }
        let scalars = Array(text.unicodeScalars)
        if let bad = scalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw invalid(bad == " " ? "contains a space" : "contains a control character or whitespace")
        }
        if scalars.contains(where: { !$0.isASCII }) {
            throw invalid("contains non-ASCII characters (percent-encode them)")
        }

        // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"
        guard let colon = text.firstIndex(of: ":") else { throw invalid("is not absolute (no scheme)") }
        let scheme = text[..<colon]
        let schemeIsValid =
            scheme.first.map { $0.isLetter } == true
            && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
        guard schemeIsValid else { throw invalid("is not absolute (no scheme)") }
        guard scheme.lowercased() == "https" else {
            throw Outcome(.insecureURL, "\(label) \(Quoting.single(text)) uses scheme '\(scheme.lowercased())'; only https is allowed")
        }

        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw invalid("has no host (expected 'https://host/...')") }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        if authority.contains("@") { throw invalid("contains user info before the host") }

        var host: Substring
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("has an unterminated IPv6 host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let afterHost = authority[authority.index(after: close)...]
            if !afterHost.isEmpty {
                guard afterHost.hasPrefix(":") else { throw invalid("has characters after the IPv6 host") }
                port = afterHost.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw invalid("has an invalid IPv6 host")
            }
        } else {
            if let portColon = authority.firstIndex(of: ":") {
                host = authority[..<portColon]
                port = authority[authority.index(after: portColon)...]
            } else {
                host = authority
            }
            let allowed = { (c: Character) -> Bool in
                c.isLetter || c.isNumber || c == "-" || c == "." || c == "_" || c == "~" || c == "%"
            }
            guard !host.isEmpty else { throw invalid("has no host") }
            guard host.allSatisfy(allowed) else { throw invalid("has an invalid character in the host") }
        }
        if let port {
            // An empty port (`host:`) means the default, as RFC 3986 allows.
            if !port.isEmpty {
                guard port.allSatisfy({ $0.isASCII && $0.isNumber }), port.count <= 5, let number = Int(port),
                    (1...65535).contains(number)
                else { throw invalid("has an invalid port '\(port)'") }
            }
        }
        absoluteString = text
        self.host = String(host)
    }
}
