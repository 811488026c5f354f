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
}
