internal import CCurl

/// Downloads one URL at a time over HTTPS with libcurl, following redirects itself, and streams the
/// final response's body into a sink.
///
/// It owns the easy and multi handles of the image downloads (the API client's handle is ``APIClient``'s,
/// the shared TLS session cache ``CurlShare``'s; what all three set up alike is ``CurlSecureSetup``'s,
/// in `Transport/`): only `Download/` and `Transport/` import libcurl. One downloader serves
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
    let configuration: DownloadConfiguration
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

    /// Creates the libcurl handles, attached to `share` when given (its TLS sessions and DNS cache).
    ///
    /// - Throws: an ``Outcome`` with ``Reason/network`` when libcurl cannot create a handle.
    ///
    /// `recording`: keep the certificates each full handshake's server sent (``TransferHop/Facts/chain``),
    /// and resume no TLS session, so that every new connection makes a full handshake and has its chain;
    /// and hand a download's tap the request head as sent and the body as received (`tapOptions`).
    init(configuration: DownloadConfiguration, share: CurlShare? = nil, recording: Bool = false) throws(Outcome) {
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
        appliedSecurity = configuration.transportSecurity
        errorBuffer = .allocate(capacity: CurlDownloader.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: CurlDownloader.errorBufferSize)
        var list: UnsafeMutablePointer<curl_slist>?
        for line in configuration.requestHeaders.lines { list = curl_slist_append(list, line) }
        headerList = list
        setupFailure = CurlDownloader.configure(
            easy, configuration, errorBuffer: errorBuffer, handshake: handshake, share: share?.handle, headers: list)
        if recording, setupFailure == nil {
            handshake.keepsChain = true
            setupFailure =
                CurlDownloader.check(
                    CURLOPT_SSL_SESSIONID_CACHE, carillon_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0))
                ?? CurlDownloader.tapOptions(easy, context: context)
        }
    }

    /// An option libcurl refused when the handle was set up, reported by every download.
    private var setupFailure: (code: Int32, message: String)?
    /// The App Transport Security rules the handle's protocol options are set for: the policy's standard
    /// at first, then the last request's host's.
    private var appliedSecurity: TransportSecurity
    /// An option libcurl refused during the download in progress: its report carries only that.
    private var optionFailure: (code: Int32, message: String)?
    /// What the C callbacks reach; its feed is the download in progress.
    private let context = TransferContext()
    /// While recording: the handshake facts of each connection this downloader opened and may reuse.
    private var openedConnections = OpenedConnections()

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
            // User-Agent, Accept, Accept-Language, Accept-Encoding and any extra header field: a field of the list
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

    /// `curl_multi_wakeup`: ends the multi handle's current `curl_multi_poll` at once (from any thread).
    static func wake(_ multi: UnsafeMutableRawPointer) {
        curl_multi_wakeup(multi)
    }

    /// Downloads `url`, following redirects, streaming the final body into `sink`: the
    /// ``TransferMachine`` decides, driven by ``TransferFeed/run(_:configuration:source:tap:sink:)`` with this
    /// downloader as its ``TransferSource``.
    ///
    /// Returns when the chain ends, fails, runs out of budget, the sink stops it, or `cancellation`
    /// fires. A recording's `tap` hears each request and every byte received.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, tap: TransferTap? = nil, into sink: DownloadSink) -> TransferReport {
        var source = CurlTransferSource(downloader: self, cancellation: cancellation)
        // The feed holds the sink, which must not outlive this call.
        defer { context.feed = nil }
        return TransferFeed.run(url, configuration: configuration, source: &source, tap: tap, sink: sink)
    }

    /// One request of a chain started at `start`, under `deadline`: the handle's options for it, the
    /// transfer, and what libcurl reports after.
    func request(
        _ url: ImageURL, feed: TransferFeed, cancellation: DownloadCancellation, start: ContinuousClock.Instant,
        deadline: ContinuousClock.Instant
    ) -> TransferStart {
        if let failure = setupFailure { return failed(failure) }
        context.feed = feed
        context.easy = easy
        context.startRequest()
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        if let failure = CurlDownloader.check(CURLOPT_WRITEDATA, carillon_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, pointer))
            ?? CurlDownloader.check(CURLOPT_HEADERDATA, carillon_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, pointer))
        {
            return failed(failure)
        }
        let security = configuration.transportSecurityPolicy.security(forHost: url.host)
        if security != appliedSecurity {
            if let failure = CurlSecureSetup.firstFailure(CurlSecureSetup.protocolOptions(easy, security)) { return failed(failure) }
            appliedSecurity = security
        }
        handshake.host = url.host
        handshake.brokenRule = nil
        handshake.clientCertificateRequested = false
        handshake.sentChain = []
        let left = deadline - ContinuousClock.now
        if left <= .zero { return .notStarted(code: Int32(CURLE_OPERATION_TIMEDOUT.rawValue)) }
        errorBuffer.update(repeating: 0, count: CurlDownloader.errorBufferSize)
        if let failure = CurlDownloader.check(CURLOPT_URL, carillon_easy_setopt_string(easy, CURLOPT_URL, url.absoluteString))
            ?? CurlDownloader.check(
                CURLOPT_TIMEOUT_MS, carillon_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, left.roundedUpMilliseconds))
        {
            return failed(failure)
        }
        let (code, cancelled) = perform(cancellation, context) { snapshot(start: start) }
        var connects = 0
        carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        var facts = CurlDownloader.requestFacts(easy, tls: connects > 0 ? context.tls : nil)
        facts.chain = connects > 0 ? handshake.sentChain : []
        facts.certificateRequested = handshake.clientCertificateRequested
        if handshake.keepsChain { openedConnections.remember(&facts, connection: context.connection, tls: context.tls, new: connects > 0) }
        return .ended(
            HopEnding(
                curlCode: Int32(code.rawValue), cancelled: cancelled, newConnection: connects > 0,
                endMilliseconds: (ContinuousClock.now - start).roundedUpMilliseconds, facts: facts))
    }

    /// An option libcurl refused: the chain ends before (or instead of) this request, with the
    /// option's code and words.
    private func failed(_ failure: (code: Int32, message: String)) -> TransferStart {
        optionFailure = failure
        return .notStarted(code: failure.code)
    }

    /// How the chain ended with `code`: libcurl's words for it, and what the handshake noted.
    func chainEnding(code: Int32, start: ContinuousClock.Instant) -> ChainEnding {
        if let failure = optionFailure {
            optionFailure = nil
            return ChainEnding(curlCode: failure.code, message: failure.message, beforeFirstRequest: true)
        }
        var message = String(cString: curl_easy_strerror(CURLcode(rawValue: UInt32(bitPattern: code))))
        let detail = String(cString: errorBuffer)
        if !detail.isEmpty && detail != message { message += " (\(detail))" }
        return ChainEnding(
            curlCode: code, message: message, tlsRule: handshake.brokenRule,
            clientCertificateRequested: handshake.clientCertificateRequested,
            elapsedMilliseconds: (ContinuousClock.now - start).roundedUpMilliseconds)
    }

    /// The transfer as a cancelled one would report it now (``TransferSnapshots``): the machine's
    /// decisions so far, with the request under way ended as cancelled, and the outcome that names its
    /// phase, host and bytes. Nil before the feed exists.
    private func snapshot(start: ContinuousClock.Instant) -> TransferSnapshots.Snapshot? {
        guard var machine = context.feed?.machine else { return nil }
        var connects = 0
        carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        let code = Int32(CURLE_ABORTED_BY_CALLBACK.rawValue)
        let elapsed = (ContinuousClock.now - start).roundedUpMilliseconds
        _ = machine.endHop(
            HopEnding(
                curlCode: code, cancelled: true, newConnection: connects > 0, endMilliseconds: elapsed,
                facts: CurlDownloader.requestFacts(easy, tls: connects > 0 ? context.tls : nil)))
        let report = machine.finish(ChainEnding(curlCode: code, message: "", elapsedMilliseconds: elapsed))
        let outcome = report.failure ?? Outcome(.expired, "time-will-expire arrived before the download finished")
        return TransferSnapshots.Snapshot(outcome: outcome, trace: report.trace(image: nil))
    }

    /// Runs one request in the multi handle until it ends or is cancelled; between two turns, answers
    /// whoever asked `cancellation` for a snapshot of the transfer.
    private func perform(
        _ cancellation: DownloadCancellation, _ context: TransferContext, snapshot: () -> TransferSnapshots.Snapshot?
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
            context.readTLS(CurlDownloader.handshakeTLS)
            if cancellation.snapshots.isWanted, let picture = snapshot() { cancellation.snapshots.publish(picture) }
            if running == 0 { break }
            // A redirect is decided on its head; its body is never waited for. A short one (at most
            // RedirectRule.maximumBodyBytes announced) still in flight gets RedirectRule.drainMilliseconds
            // to arrive, so that its connection can be reused; then, or at once for a longer one, the
            // handle is removed (which closes an HTTP/1.1 connection and resets an HTTP/2 stream).
            var limit: Int32 = 1000
            if let machine = context.feed?.machine, machine.disposition == .redirect {
                let drain = RedirectRule.drainTime(head: machine.head, decidedAt: context.redirectDecidedAt)
                if drain <= .zero {
                    context.feed?.cutRedirectBody()
                    return (CURLE_OK, false)
                }
                limit = Int32(clamping: drain.roundedUpMilliseconds)
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
