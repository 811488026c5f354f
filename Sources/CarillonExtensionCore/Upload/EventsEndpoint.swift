/// Where events go: `<base>/v1/events`, from the API's base URL (`--endpoint`), by the image URL's rules
/// (`ImageURL`: https only, a host, no user info, ASCII), with no query or fragment.
public struct EventsEndpoint: Sendable, Equatable {
    /// The request URL, `<base>/v1/events`.
    public let url: String
    /// Its host, for the certificate's name check.
    public let host: String

    /// - Throws: an ``Outcome`` (``Reason/invalidURL`` or ``Reason/insecureURL``) whose detail says what
    ///   is wrong with `base`.
    public init(validating base: String) throws(Outcome) {
        let checked = try ImageURL(validating: base, naming: "endpoint")
        if base.contains("?") || base.contains("#") {
            throw Outcome(
                .invalidURL,
                "endpoint \(Quoting.single(base)) has a query or fragment; give the API's base URL, e.g. https://api.example.com")
        }
        var trimmed = Substring(base)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        url = trimmed + "/v1/events"
        host = checked.host
    }
}
