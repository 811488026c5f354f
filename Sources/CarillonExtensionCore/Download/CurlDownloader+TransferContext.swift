extension CurlDownloader {
    /// What the C callbacks of one request reach: the ``TransferFeed`` that takes the head and the
    /// body (the decisions are its machine's), and what only libcurl knows (the handle, the
    /// connection's TLS, when a redirect's head was complete).
    ///
    /// The write callback receives the body as libcurl has decoded it (gzip, deflate, br, as the
    /// response's `Content-Encoding` says): the cap counts those decoded bytes, and returning short the
    /// moment they pass it stops libcurl's decoder there, so a compression bomb costs at most the cap.
    final class TransferContext {
        /// The download in progress; set before each request.
        var feed: TransferFeed?
        /// When the redirect's head was complete.
        var redirectDecidedAt = ContinuousClock.now
        /// The connection's TLS, read once its handshake is done or on the response's first line,
        /// while the connection is attached (after the transfer libcurl no longer reports it).
        var tls: DownloadTrace.TLS?
        /// The connection the TLS facts were read on (``CurlDownloader/connectionIdentity(_:)``).
        var connection: UInt?
        var easy: UnsafeMutableRawPointer?

        func startRequest() {
            tls = nil
            connection = nil
        }

        /// Reads the connection's TLS facts, and which connection it is, once.
        func readTLS(_ read: (UnsafeMutableRawPointer) -> DownloadTrace.TLS?) {
            guard tls == nil, let easy else { return }
            tls = read(easy)
            if tls != nil { connection = CurlDownloader.connectionIdentity(easy) }
        }

        /// The header callback: hands the line to the feed, which decides on the complete head before
        /// any body. Returning less than `count` makes libcurl stop with `CURLE_WRITE_ERROR`; the
        /// machine's disposition then says why.
        func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0, let feed else { return count }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
            readTLS(CurlDownloader.negotiatedTLS)
            let undecided = feed.machine.disposition == nil
            guard feed.headLine(Substring(line)) else { return 0 }
            if undecided, feed.machine.disposition == .redirect { redirectDecidedAt = .now }
            return count
        }

        /// The write callback: the decoded body, piece by piece, to the feed.
        func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard count > 0, let data, let feed else { return count }
            return feed.body(UnsafeRawBufferPointer(start: data, count: count)) ? count : 0
        }
    }
}
