/// Where events go: `<base>/v1/events`, from the API's base URL (`APIEndpoint`: https only, a host, no
/// user info, ASCII, no query or fragment).
public struct EventsEndpoint: Sendable, Equatable {
    /// The events route under the base URL.
    static let path = "/v1/events"

    /// The request URL, `<base>/v1/events`.
    public let url: String
    /// Its host, for the certificate's name check.
    public let host: String
    /// The API's base URL.
    let api: APIEndpoint

    /// - Throws: an ``Outcome`` (``Reason/invalidURL`` or ``Reason/insecureURL``) whose detail says what
    ///   is wrong with `base`.
    public init(validating base: String) throws(Outcome) {
        api = try APIEndpoint(validating: base)
        url = api.url(Self.path)
        host = api.host
    }
}
