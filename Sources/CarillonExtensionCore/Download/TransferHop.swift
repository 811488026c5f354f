/// One request of a download's chain: the payload's URL, then one per redirect followed. Kept in the
/// ``TransferReport`` for a transfer trace.
struct TransferHop: Sendable, Equatable {
    /// The URL requested.
    var url: String
    /// The response's status (0 when none arrived).
    var status: Int
    /// The response's `Location` header, as sent.
    var location: String?
    /// Body bytes received: the image's for the last hop, discarded ones for a redirect.
    var bodyBytes: Int
    /// Whether libcurl opened a connection for this request (false: an earlier one was reused).
    var newConnection: Bool
    /// The libcurl code this request ended with.
    var curlCode: Int32
    /// Milliseconds from the start of the download to the end of this request.
    var endMilliseconds: Int
}
