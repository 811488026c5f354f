/// Why a notification was delivered the way it was: SPEC §3's stable, machine-readable codes.
public enum Reason: String, CaseIterable, Sendable, Codable {
    /// The image was downloaded, verified and attached.
    case attached
    /// Not routed: `aps.mutable-content` is not the number 1.
    case notMutable = "not-mutable"
    /// Not routed: nothing to display (a silent push).
    case noAlert = "no-alert"
    /// Routed, but there is no `carillon.image`.
    case noImage = "no-image"
    /// The image URL is malformed, not absolute, has user info, or is of a wrong JSON type.
    case invalidURL = "invalid-url"
    /// A scheme other than https, on the first request or in a redirect.
    case insecureURL = "insecure-url"
    /// More than the allowed number of redirects.
    case tooManyRedirects = "too-many-redirects"
    /// The download's time budget ran out.
    case timeout
    /// The body is over the size cap.
    case tooLarge = "too-large"
    /// The final status is not 200.
    case httpStatus = "http-status"
    /// A compressed or otherwise encoded body.
    case contentEncoding = "content-encoding"
    /// Certificate or handshake failure.
    case tls
    /// DNS, connection refused or reset, truncated body.
    case network
    /// The body has zero bytes.
    case emptyBody = "empty-body"
    /// The bytes are not a valid JPEG, PNG or GIF.
    case unsupportedType = "unsupported-type"
    /// Time-will-expire came before the attachment was complete.
    case expired
    /// The attachment file could not be written.
    case storage
    /// The input is not a JSON object (a payload read from a file only: iOS never delivers such a thing).
    case invalidPayload = "invalid-payload"
    /// A replay's recording lacks what the verdict needs (a body, a hop): the detail names what. Never
    /// the outcome of a live download.
    case undetermined

    /// The code as printed and documented.
    public var code: String { rawValue }
}
