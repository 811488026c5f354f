/// The API's base URL, by the image URL's rules (`ImageURL`: https only, a host, no user info, ASCII),
/// with no query or fragment; every request goes to a path under it.
package struct APIEndpoint: Sendable, Equatable {
    /// The base URL without trailing slashes.
    package let base: String
    /// Its host, for the certificate's name check.
    package let host: String

    /// - Throws: an ``Outcome`` (``Reason/invalidURL`` or ``Reason/insecureURL``) whose detail says what
    ///   is wrong with `base`.
    package init(validating base: String) throws(Outcome) {
        let checked = try ImageURL(validating: base, naming: "endpoint")
        if base.contains("?") || base.contains("#") {
            throw Outcome(
                .invalidURL,
                "endpoint \(Quoting.single(base)) has a query or fragment; give the API's base URL, e.g. https://api.example.com")
        }
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        self.base = String(trimmed)
        host = checked.host
    }

    /// `<base><path>`; `path` starts with `/`.
    package func url(_ path: String) -> String { base + path }
}
