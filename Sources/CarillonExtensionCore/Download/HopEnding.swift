/// How one request of the chain ended, as its ``TransferSource`` saw it.
struct HopEnding: Sendable, Equatable {
    /// The libcurl code it ended with (``CurlCode``; 0 is success). A recording keeps the one seen live.
    var curlCode: Int32
    /// It was cancelled (time-will-expire): the chain ends.
    var cancelled = false
    /// A connection was opened for it (false: an earlier one was reused).
    var newConnection: Bool
    /// Milliseconds from the start of the download to the end of this request.
    var endMilliseconds: Int
    /// The transport's facts: HTTP version, remote, TLS (on a new connection), wire bytes, timings. The
    /// machine fills in what it reads from the head itself (type, length, codings, whether it decided).
    var facts = TransferHop.Facts()
}
