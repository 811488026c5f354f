internal import CCurl

/// Downloads one URL at a time over HTTPS with libcurl, following redirects itself, and streams the
/// final response's body into a sink.
///
/// It owns the easy and multi handles of the image downloads (the upload's handle is ``CurlPoster``'s,
/// the shared TLS session cache ``CurlShare``'s; what all three set up alike is ``CurlSecureSetup``'s,
/// in `Transport/`): only `Download/`, `Transport/` and `CurlPoster` import libcurl. One downloader serves
/// one thread at a time; reusing it for the next download — and for the next hop of a redirect chain —
/// reuses its connections and TLS sessions (the multi handle holds the connection cache).
///
/// Every request is HTTPS-only and always verifies the certificate and host name, and App Transport
/// Security's rules on top (``TransportSecurity``, ``CertificateRules``). Redirects are not
/// left to libcurl (`CURLOPT_FOLLOWLOCATION` is off): each `Location` goes through ``RedirectRule``,
/// the same URL rules as the payload's, at most ``DownloadLimits/maximumRedirects`` times; a
/// redirect is followed on its complete head (its body is never waited for, and read no further than
/// ``RedirectRule/maximumBodyBytes``) and never counts against the cap. One deadline covers the whole
/// chain. Each response's head is judged by ``ResponseHead/disposition(cap:)`` before any of its body
/// is read. The request is the one the extension's `URLSession` sends (``RequestHeaders``): it asks for
/// gzip, deflate and br, and libcurl's own decoders decode them; a coding `URLSession` does not decode
/// is refused on the head. The cap counts decoded bytes and stops the decoder the moment they pass it.
final class CurlDownloader {
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer
    private let configuration: DownloadConfiguration
    /// libcurl keeps this pointer for the handle's life (`CURLOPT_ERRORBUFFER`), so it is allocated
    /// here rather than borrowed from an array for the length of a closure.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE) + 1
    /// What the TLS verification callback reads and reports. It lives as long as the handles: OpenSSL
    /// contexts of cached connections keep its address (a renegotiation could call the callback in a
    /// later download), so it is the downloader's, not one download's.
    private let handshake = HandshakeState()
    /// The pool's TLS session and DNS caches, or nil. Held so that it outlives the easy handle: the
    /// handle is cleaned up in `deinit`, before the stored properties are released.
    private let share: CurlShare?
    /// The request's header fields (`CURLOPT_HTTPHEADER`): libcurl keeps the list's address, so it
    /// lives as long as the handle and is freed in `deinit`.
    private let headerList: UnsafeMutablePointer<curl_slist>?

    /// Receives the final response's body, piece by piece; returns false to stop the transfer.
    typealias Sink = (UnsafeRawBufferPointer) -> Bool

    /// Creates the libcurl handles, attached to `share` when given (its TLS sessions and DNS cache).
    ///
    /// - Throws: an ``Outcome`` with ``Reason/network`` when libcurl cannot create a handle.
    init(configuration: DownloadConfiguration, share: CurlShare? = nil) throws(Outcome) {
        _ = CurlSecureSetup.globalInitialization
        guard let easy = curl_easy_init() else { throw Outcome(.network, "curl_easy_init failed") }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            throw Outcome(.network, "curl_multi_init failed")
        }
        self.easy = easy
        self.multi = multi
        self.configuration = configuration
        self.share = share
        errorBuffer = .allocate(capacity: CurlDownloader.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: CurlDownloader.errorBufferSize)
        var list: UnsafeMutablePointer<curl_slist>?
        for line in configuration.requestHeaders.lines { list = curl_slist_append(list, line) }
        headerList = list
        setupFailure = CurlDownloader.configure(
            easy, configuration, errorBuffer: errorBuffer, handshake: handshake, share: share?.handle, headers: list)
    }

    /// An option libcurl refused when the handle was set up, reported by every download.
    private var setupFailure: (code: Int32, message: String)?

    private static func check(_ option: CURLoption, _ result: CURLcode) -> (code: Int32, message: String)? {
        guard result != CURLE_OK else { return nil }
        let message = String(cString: curl_easy_strerror(result))
        return (Int32(result.rawValue), "setting option \(option.rawValue) failed: \(message)")
    }

    /// Sets the options every download of this handle shares, once: they stay set across transfers
    /// (the handle is never reset, which also keeps libcurl's receive buffer instead of reallocating it).
    private static func configure(
        _ easy: UnsafeMutableRawPointer, _ configuration: DownloadConfiguration, errorBuffer: UnsafeMutablePointer<CChar>,
        handshake: HandshakeState, share: UnsafeMutableRawPointer?, headers: UnsafeMutablePointer<curl_slist>?
    ) -> (code: Int32, message: String)? {
        var options = CurlSecureSetup.options(
            easy, transportSecurity: configuration.transportSecurity, extraCAFile: configuration.extraCAFile,
            errorBuffer: errorBuffer, handshake: handshake)
        options += [
            // The curl tool's receive buffer (100 KiB) rather than libcurl's 16 KiB default: a sixth of the
            // write callbacks and write(2) calls for a large image, for 100 KiB per downloader.
            (CURLOPT_BUFFERSIZE, carillon_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 100 * 1024)),
            (
                CURLOPT_HEADERFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<CurlDownloader.TransferContext>.fromOpaque(userData!).takeUnretainedValue()
                    return context.header(data, size * count)
                }
            ),
            (
                CURLOPT_WRITEFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<CurlDownloader.TransferContext>.fromOpaque(userData!).takeUnretainedValue()
                    return context.body(data, size * count)
                }
            ),
            // No CURLOPT_MAXFILESIZE_LARGE: it would apply to a redirect's announced length too, and it
            // counts encoded bytes. The head check refuses an announced oversize identity image before
            // its body instead, and the write callback counts decoded bytes.
            // Exactly URLSession's list, never "" (which would also offer zstd, built into this libcurl):
            // this turns libcurl's decoders on. A fields list naming Accept-Encoding still replaces the header.
            (
                CURLOPT_ACCEPT_ENCODING,
                carillon_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, RequestHeaders.acceptEncoding)
            ),
            // User-Agent, Accept, Accept-Language, Accept-Encoding and any --header: a field of the list
            // replaces libcurl's own of the same name.
            (CURLOPT_HTTPHEADER, carillon_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headers.map { UnsafeMutableRawPointer($0) })),
        ]
        if let share { options.append((CURLOPT_SHARE, carillon_easy_setopt_pointer(easy, CURLOPT_SHARE, share))) }
        return CurlSecureSetup.firstFailure(options)
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The libcurl version and TLS backend, e.g. "libcurl/7.88.1 OpenSSL/3.0.17".
    static var versionDescription: String {
        String(cString: curl_version())
    }

    /// `curl_multi_wakeup`: ends the multi handle's current `curl_multi_poll` at once (from any thread).
    static func wake(_ multi: UnsafeMutableRawPointer) {
        curl_multi_wakeup(multi)
    }

    /// Downloads `url`, following redirects, streaming the final body into `sink`.
    ///
    /// Returns when the chain ends, fails, runs out of budget, the sink stops it, or `cancellation`
    /// fires.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: Sink) -> TransferReport {
        let limits = configuration.limits
        let start = ContinuousClock.now
        let deadline = start + max(limits.budget, .zero)
        var report = TransferReport(
            curlCode: 0, curlMessage: "", status: 0, bytesWritten: 0, transportSecurity: configuration.transportSecurity,
            cap: limits.maximumBytes, budget: limits.budget)
        report.requestHeaders = configuration.requestHeaders.redacted
        if let failure = setupFailure {
            report.curlCode = failure.code
            report.curlMessage = failure.message
            return report
        }
        return withoutActuallyEscaping(sink) { sink in
            let context = TransferContext(cap: limits.maximumBytes, sink: sink)
            context.easy = easy
            let pointer = Unmanaged.passUnretained(context).toOpaque()
            if let failure = CurlDownloader.check(CURLOPT_WRITEDATA, carillon_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, pointer))
                ?? CurlDownloader.check(CURLOPT_HEADERDATA, carillon_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, pointer))
            {
                report.curlCode = failure.code
                report.curlMessage = failure.message
                return report
            }
            var current = url
            var code = CURLE_OK
            while true {
                context.startRequest()
                handshake.host = current.host
                handshake.brokenRule = nil
                handshake.clientCertificateRequested = false
                let left = deadline - ContinuousClock.now
                if left <= .zero {
                    code = CURLE_OPERATION_TIMEDOUT
                    break
                }
                errorBuffer.update(repeating: 0, count: CurlDownloader.errorBufferSize)
                if let failure = CurlDownloader.check(CURLOPT_URL, carillon_easy_setopt_string(easy, CURLOPT_URL, current.absoluteString))
                    ?? CurlDownloader.check(
                        CURLOPT_TIMEOUT_MS, carillon_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, CurlDownloader.milliseconds(left)))
                {
                    report.curlCode = failure.code
                    report.curlMessage = failure.message
                    return report
                }
                let cancelled: Bool
                (code, cancelled) = perform(cancellation, context) {
                    snapshot(of: report, current: current, context: context, start: start)
                }
                var connects = 0
                carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
                var facts = CurlDownloader.requestFacts(easy, head: context.head, tls: connects > 0 ? context.tls : nil)
                facts.headDecided = context.disposition != nil
                facts.codings = context.codings
                report.hops.append(
                    TransferHop(
                        url: current.absoluteString, status: context.head.status, location: context.head.location,
                        bodyBytes: context.bodyBytes, newConnection: connects > 0, curlCode: Int32(code.rawValue),
                        endMilliseconds: CurlDownloader.milliseconds(ContinuousClock.now - start), facts: facts))
                if cancelled {
                    report.cancelled = true
                    break
                }
                // A redirect is followed on its complete head, however its body ended (complete, cut at its
                // limit, left unread, or closed early): URLSession never reads it.
                guard context.disposition == .redirect else { break }
                switch RedirectRule.next(
                    from: current, status: context.head.status, location: context.head.location,
                    number: report.hops.count, maximum: limits.maximumRedirects)
                {
                case .success(let next):
                    current = next
                case .failure(let refusal):
                    report.refusal = refusal
                    return finish(report, code: code, context: context, start: start)
                }
            }
            return finish(report, code: code, context: context, start: start)
        }
    }

    private func finish(_ report: TransferReport, code: CURLcode, context: TransferContext, start: ContinuousClock.Instant)
        -> TransferReport
    {
        var report = report
        report.curlCode = Int32(code.rawValue)
        var message = String(cString: curl_easy_strerror(code))
        let detail = String(cString: errorBuffer)
        if !detail.isEmpty && detail != message { message += " (\(detail))" }
        report.curlMessage = message
        report.status = context.head.status
        report.bytesWritten = context.disposition == .redirect ? 0 : context.bodyBytes
        if report.refusal == nil, case .refused(let refusal) = context.disposition { report.refusal = refusal }
        report.stoppedAtCap = context.stoppedAtCap
        report.bytesReceivedAtCap = context.bytesReceivedAtCap
        report.stoppedBySink = context.stoppedBySink
        report.tlsRule = handshake.brokenRule
        report.clientCertificateRequested = handshake.clientCertificateRequested
        report.contentCodings = context.codings
        report.elapsedMilliseconds = CurlDownloader.milliseconds(ContinuousClock.now - start)
        return report
    }

    /// A duration in whole milliseconds, rounded up (a wait never ends before its time), at least 1:
    /// libcurl reads a timeout of 0 as "no limit". A duration too long for milliseconds in an `Int` (the
    /// public limits take any `Duration`) saturates instead of trapping.
    static func milliseconds(_ duration: Duration) -> Int {
        // `wholeMilliseconds` drops the fraction toward zero and saturates; a remainder rounds it up.
        let whole = duration.wholeMilliseconds
        let rounded = whole < .max && .milliseconds(whole) < duration ? whole + 1 : whole
        return Int(clamping: max(rounded, 1))
    }

    /// The transfer as a cancelled one would report it now (``TransferSnapshots``): the requests made,
    /// the one under way, and the outcome that names its phase, host and bytes.
    private func snapshot(of report: TransferReport, current: ImageURL, context: TransferContext, start: ContinuousClock.Instant)
        -> TransferSnapshots.Snapshot
    {
        var connects = 0
        carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var report = report
        report.hops.append(
            TransferHop(
                url: current.absoluteString, status: context.head.status, location: context.head.location, bodyBytes: context.bodyBytes,
                newConnection: connects > 0, curlCode: Int32(CURLE_ABORTED_BY_CALLBACK.rawValue),
                endMilliseconds: CurlDownloader.milliseconds(ContinuousClock.now - start),
                facts: CurlDownloader.requestFacts(easy, head: context.head, tls: connects > 0 ? context.tls : nil)))
        report = finish(report, code: CURLE_ABORTED_BY_CALLBACK, context: context, start: start)
        report.cancelled = true
        let outcome = report.failure ?? Outcome(.expired, "time-will-expire arrived before the download finished")
        return TransferSnapshots.Snapshot(outcome: outcome, trace: report.trace(image: nil))
    }

    /// Runs one request in the multi handle until it ends or is cancelled; between two turns, answers
    /// whoever asked `cancellation` for a snapshot of the transfer.
    private func perform(
        _ cancellation: DownloadCancellation, _ context: TransferContext, snapshot: () -> TransferSnapshots.Snapshot
    ) -> (CURLcode, cancelled: Bool) {
        guard cancellation.attach(multi) else { return (CURLE_ABORTED_BY_CALLBACK, true) }
        defer { cancellation.detach() }
        curl_multi_add_handle(multi, easy)
        defer { curl_multi_remove_handle(multi, easy) }
        var running: Int32 = 1
        while true {
            if cancellation.isCancelled { return (CURLE_ABORTED_BY_CALLBACK, true) }
            let performed = curl_multi_perform(multi, &running)
            if performed != CURLM_OK {
                return (CURLE_OUT_OF_MEMORY, false)
            }
            // Read as soon as the handshake is done: a stall before the headers closes the connection.
            if context.tls == nil { context.tls = CurlDownloader.handshakeTLS(easy) }
            if cancellation.snapshots.isWanted { cancellation.snapshots.publish(snapshot()) }
            if running == 0 { break }
            // A redirect is decided on its head; its body is never waited for. A short one (at most
            // RedirectRule.maximumBodyBytes announced) still in flight gets RedirectRule.drainMilliseconds
            // to arrive, so that its connection can be reused; then, or at once for a longer one, the
            // handle is removed (which closes an HTTP/1.1 connection and resets an HTTP/2 stream).
            var limit: Int32 = 1000
            if context.disposition == .redirect {
                let drain = RedirectRule.drainTime(head: context.head, decidedAt: context.redirectDecidedAt)
                if drain <= .zero {
                    context.redirectBodyCut = true
                    return (CURLE_OK, false)
                }
                limit = Int32(clamping: CurlDownloader.milliseconds(drain))
            }
            // Wakes on socket activity, libcurl's own timers (the budget), curl_multi_wakeup, or the
            // cancellation's expiry.
            let wait = cancellation.waitMilliseconds(upTo: limit)
            if wait == 0, cancellation.sleepOutImminentExpiry() { continue }
            curl_multi_poll(multi, nil, 0, wait, nil)
        }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE && message.pointee.easy_handle == easy {
                return (message.pointee.data.result, false)
            }
        }
        return (CURLE_OK, false)
    }
}
