extension CurlDownloader {
    /// State shared with the C callbacks during one download; reset for each request of the chain.
    ///
    /// The write callback receives the body as libcurl has decoded it (gzip, deflate, br, as the
    /// response's `Content-Encoding` says): the cap counts those decoded bytes, and returning short the
    /// moment they pass it stops libcurl's decoder there, so a compression bomb costs at most the cap.
    final class TransferContext {
        let cap: Int
        let sink: Sink
        var head = ResponseHead()
        var disposition: ResponseHead.Disposition?
        /// Decoded body bytes: handed to the sink (the image), or counted and dropped (a redirect's).
        var bodyBytes = 0
        var stoppedAtCap = false
        var bytesReceivedAtCap = 0
        var stoppedBySink = false
        /// A redirect's body was cut at its limit or left unread: the redirect is followed all the same.
        var redirectBodyCut = false
        /// When the redirect's head was complete.
        var redirectDecidedAt = ContinuousClock.now
        /// The connection's TLS, read once its handshake is done or on the response's first line,
        /// while the connection is attached (after the transfer libcurl no longer reports it).
        var tls: DownloadTrace.TLS?
        var easy: UnsafeMutableRawPointer?

        init(cap: Int, sink: @escaping Sink) {
            self.cap = cap
            self.sink = sink
        }

        func startRequest() {
            tls = nil
            head = ResponseHead()
            disposition = nil
            bodyBytes = 0
            redirectBodyCut = false
        }

        /// The content codings of the response being read, when it is the image's.
        var codings: [String] {
            if case .image(_, let codings) = disposition { return codings }
            return []
        }

        /// The header callback: collects the head and decides on it before any body. Returning less
        /// than `count` makes libcurl stop with `CURLE_WRITE_ERROR`; `disposition` then says why.
        func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0 else { return count }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
            if tls == nil, let easy { tls = CurlDownloader.negotiatedTLS(easy) }
            guard head.add(line: Substring(line)) else { return count }
            let decided = head.disposition(cap: cap)
            disposition = decided
            if decided == .redirect { redirectDecidedAt = .now }
            if case .refused = decided { return 0 }
            return count
        }

        /// The write callback: the image's decoded body goes to the sink within the cap; a redirect's
        /// is counted and dropped up to its limit.
        func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard count > 0, let data else { return count }
            switch disposition {
            case .redirect:
                if bodyBytes + count > RedirectRule.maximumBodyBytes {
                    redirectBodyCut = true
                    return 0
                }
                bodyBytes += count
                return count
            case .image:
                if bodyBytes + count > cap {
                    stoppedAtCap = true
                    bytesReceivedAtCap = bodyBytes + count
                    return 0
                }
                guard sink(UnsafeRawBufferPointer(start: data, count: count)) else {
                    stoppedBySink = true
                    return 0
                }
                bodyBytes += count
                return count
            case .refused, nil:
                return 0
            }
        }
    }
}
