import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct ImageURLTests {
    @Test(arguments: [
        ("https://example.com/a.png", "example.com"),
        ("HTTPS://EXAMPLE.COM/a.png", "EXAMPLE.COM"),
        ("hTTpS://cdn.example.com:8443/i?x=1#f", "cdn.example.com"),
        ("https://127.0.0.1:4443/img/png", "127.0.0.1"),
        ("https://[::1]:4443/img/png", "::1"),
        ("https://example.com", "example.com"),
        ("https://example.com:/a", "example.com"),
        ("https://a.b/%20space", "a.b"),
    ])
    func acceptsAbsoluteHTTPSURLs(text: String, host: String) throws {
        let url = try ImageURL(validating: text)
        #expect(url.host == host)
        #expect(url.absoluteString == text)
    }

    @Test(arguments: [
        ("", Reason.invalidURL, "empty string"),
        ("/img/a.png", .invalidURL, "not absolute"),
        ("example.com/a.png", .invalidURL, "not absolute"),
        ("1https://x", .invalidURL, "not absolute"),
        ("https:example.com/a.png", .invalidURL, "has no host"),
        ("https:///a.png", .invalidURL, "has no host"),
        ("https://user:pw@example.com/a.png", .invalidURL, "user info"),
        ("https://user@example.com/a.png", .invalidURL, "user info"),
        ("https://exa mple.com/a.png", .invalidURL, "contains a space"),
        ("https://example.com/a\n.png", .invalidURL, "control character"),
        ("https://exämple.com/a.png", .invalidURL, "non-ASCII"),
        ("https://example.com:99999/a.png", .invalidURL, "invalid port"),
        ("https://example.com:0/a.png", .invalidURL, "invalid port"),
        ("https://example.com:44a/a.png", .invalidURL, "invalid port"),
        ("https://[::1/a.png", .invalidURL, "unterminated IPv6"),
        ("https://ex<ample.com/", .invalidURL, "invalid character in the host"),
        ("http://example.com/a.png", .insecureURL, "scheme 'http'"),
        ("HTTP://example.com/a.png", .insecureURL, "scheme 'http'"),
        ("ftp://example.com/a.png", .insecureURL, "scheme 'ftp'"),
        ("file:///etc/passwd", .insecureURL, "scheme 'file'"),
        ("data:image/png;base64,AAAA", .insecureURL, "scheme 'data'"),
    ])
    func refusesBeforeAnyConnection(text: String, reason: Reason, detail: String) {
        #expect {
            try ImageURL(validating: text)
        } throws: { error in
            guard let outcome = error as? Outcome else { return false }
            return outcome.reason == reason && outcome.detail.contains(detail)
        }
    }

    /// The validation as it was, Character by Character: the reference the byte-by-byte one must match.
    static func reference(_ text: String, naming label: String = "image URL") throws(Outcome) -> String {
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
        return String(host)
    }

    /// Whatever the text, the byte-by-byte validation gives what the Character one gave: the same host,
    /// or the same reason and words. Every accepted and refused URL above, and mutations of them: each
    /// byte position changed to characters the rules single out.
    @Test func decidesAsTheCharacterByCharacterRulesDid() {
        let seeds = [
            "https://example.com/a.png", "HTTPS://EXAMPLE.COM:8443/i?x=1#f", "https://[::1]:4443/img/png", "https://a.b/%20space",
            "https://user@h/", "https://[::1/a", "https://h:99999/", "ftp://h/", "1https://x", "https:h", "https://h:/a",
            "https://[fe80::1%25en0]:1/", "https://h.example:443?q#f", "",
        ]
        let replacements = [
            "", ":", "/", "?", "#", "@", "[", "]", "%", ".", "-", "_", "~", "+", "1", "a", "Z", "g", " ", "\t", "\u{7F}", "é", "<", "0",
        ]
        func outcome(_ result: () throws(Outcome) -> String) -> String {
            do { return "host " + (try result()) } catch { return "\(error.reason) \(error.detail)" }
        }
        for seed in seeds {
            let characters = Array(seed)
            for position in 0...characters.count {
                for replacement in replacements {
                    var changed = characters
                    if position < changed.count { changed[position...position] = ArraySlice(replacement) } else { changed += replacement }
                    let text = String(changed)
                    let now = outcome { () throws(Outcome) in try ImageURL(validating: text).host }
                    let before = outcome { () throws(Outcome) in try Self.reference(text) }
                    #expect(now == before, "\(text)")
                }
            }
        }
    }
}
