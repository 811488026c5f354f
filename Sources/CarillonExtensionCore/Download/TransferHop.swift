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
    /// What libcurl reported about the request, for the trace.
    var facts = Facts()
    /// The head as received: its exact lines (interim 1xx heads included, line endings kept), for a
    /// recording; the fields are in ``ResponseHead`` form in the machine.
    var rawHead: [UInt8] = []
    /// The final head's status line and fields, in order, duplicates kept.
    var statusLine = ""
    var fields: [HTTPField] = []

    /// `curl_easy_getinfo`'s view of one request, free of C types.
    struct Facts: Sendable, Equatable {
        /// `CURLINFO_HTTP_VERSION`: "1.0", "1.1", "2", "3", or nil (no response).
        var httpVersion: String?
        /// `CURLINFO_PRIMARY_IP` and `CURLINFO_PRIMARY_PORT`.
        var remote: String?
        var contentType: String?
        var contentLength: Int?
        /// Read while the connection was live (`CURLINFO_TLS_SSL_PTR`).
        var tls: DownloadTrace.TLS?
        /// Microseconds: name lookup, connect, TLS, first byte, total (`CURLINFO_*_TIME_T`).
        var microseconds: [Int64] = [0, 0, 0, 0, 0]
        /// The head was complete and the downloader decided on it (a refusal is then an ending, not a stall).
        var headDecided = false
        /// The image's content codings as sent, lowercased, in the order applied (identity left out).
        var codings: [String] = []
        /// Body bytes as they came over the wire, before decoding (`CURLINFO_SIZE_DOWNLOAD_T`).
        var wireBytes = 0
        /// The certificates the server sent in a full handshake on this request's new connection, leaf
        /// first, DER; kept only while recording.
        var chain: [[UInt8]] = []
        /// The server asked for a client certificate in this request's handshake.
        var certificateRequested = false
        /// While recording: which TLS connection the request went over (its OpenSSL object, while it
        /// lives), so that requests on one connection are recorded on one.
        var connectionIdentity: UInt?
        /// While recording, on a connection an earlier download opened and this one reused: its TLS
        /// facts as negotiated then (``chain`` and ``certificateRequested`` are then that handshake's too).
        var connectionTLS: DownloadTrace.TLS?
    }
}
