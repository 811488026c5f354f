/// Every decision of one image download, as a pure state machine that is told what arrived and
/// answers what to do next; it performs no I/O of its own.
///
/// A ``TransferSource`` (libcurl in ``CurlDownloader``; a recording in ``RecordedTransferSource``)
/// makes the requests and feeds it, through a ``TransferFeed``, hop by hop:
///
/// 1. ``startHop()``, then each line of the response head as it arrives, ``receive(headLine:)``
///    (status line, fields, the blank line; interim 1xx heads are skipped): the complete head is judged
///    by ``ResponseHead/disposition(cap:)`` (redirect, image, or refused before any body) and the
///    answer is `.stop` when the transfer must end there;
/// 2. each piece of the *decoded* body, ``receiveBody(count:)``: `.deliver` it to the sink (then
///    ``delivered(count:accepted:)``), `.discard` it (a redirect's, up to
///    ``RedirectRule/maximumBodyBytes``), or `.stop` (the cap passed, or no body is wanted);
/// 3. ``endHop(_:)`` with how the request ended (``HopEnding``: the libcurl code, the connection, the
///    wire facts and timings): the answer is the next URL to request (a redirect followed by
///    ``RedirectRule``) or `.finished`;
/// 4. ``finish(_:)`` with how the chain ended (``ChainEnding``) gives the ``TransferReport``, whose
///    ``TransferReport/failure`` and ``TransferReport/trace(image:)`` are the verdict and the trace.
///
/// A live run and a replay go through exactly these calls, so they reach the same verdict from the
/// same bytes.
struct TransferMachine: Sendable {
    /// What to do after a head line.
    enum HeadAction: Sendable, Equatable {
        /// Go on reading (the rest of the head, or the body).
        case proceed
        /// End the request now: the head was refused (``disposition`` says why).
        case stop
    }

    /// What to do with a piece of decoded body.
    enum BodyAction: Sendable, Equatable {
        /// Hand it to the sink, then report ``delivered(count:accepted:)``.
        case deliver
        /// Count it and drop it (a redirect's body).
        case discard
        /// End the request now (the cap passed, a redirect's body passed its limit, or no body is wanted).
        case stop
    }

    /// What to do after a request ended.
    enum Step: Sendable, Equatable {
        /// Request this URL next (a redirect followed).
        case request(ImageURL)
        /// The chain is over: call ``finish(_:)``.
        case finished
    }

    /// The limits in force.
    let limits: DownloadLimits
    /// App Transport Security per host: the report words a refused handshake by the current host's rules.
    let transportSecurityPolicy: TransportSecurityPolicy
    /// The URL of the request in progress (the payload's, then each redirect's).
    private(set) var current: ImageURL
    /// The report so far: the hops ended, and the settings in force.
    private(set) var report: TransferReport
    /// The head of the request in progress, as received so far.
    private(set) var head = ResponseHead()
    /// The decision on the complete head of the request in progress; nil until it is complete.
    private(set) var disposition: ResponseHead.Disposition?
    /// Decoded body bytes of the request in progress: delivered (the image), or counted and dropped (a redirect's).
    private(set) var bodyBytes = 0
    /// A redirect's body was cut at its limit or left unread: the redirect is followed all the same.
    private(set) var redirectBodyCut = false
    /// The head lines of the request in progress, as received.
    private var rawHead: [UInt8] = []
    private var stoppedAtCap = false
    private var bytesReceivedAtCap = 0
    private var stoppedBySink = false

    /// A machine for a download of `url` under `configuration`.
    init(url: ImageURL, configuration: DownloadConfiguration) {
        limits = configuration.limits
        transportSecurityPolicy = configuration.transportSecurityPolicy
        current = url
        report = TransferReport(
            curlCode: 0, curlMessage: "", status: 0, bytesWritten: 0,
            transportSecurity: configuration.transportSecurityPolicy.security(forHost: url.host), cap: limits.maximumBytes,
            budget: limits.budget)
        report.requestHeaders = configuration.requestHeaders.redacted
    }

    /// The content codings of the response being read, when it is the image's.
    var codings: [String] {
        if case .image(_, let codings) = disposition { return codings }
        return []
    }

    /// Clears the per-request state before a request of the chain.
    mutating func startHop() {
        head = ResponseHead()
        rawHead = []
        disposition = nil
        bodyBytes = 0
        redirectBodyCut = false
    }

    /// One line of the head, with or without its line ending. Decides on the head once it is complete.
    mutating func receive(headLine line: Substring) -> HeadAction {
        if !head.isComplete {
            // The line's bytes where they are (the generic append walks a Substring's UTF-8 view).
            if line.utf8.withContiguousStorageIfAvailable({ rawHead.append(contentsOf: $0) }) == nil {
                rawHead.append(contentsOf: line.utf8)
            }
        }
        guard head.add(line: line) else { return .proceed }
        let decided = head.disposition(cap: limits.maximumBytes)
        disposition = decided
        if case .refused = decided { return .stop }
        return .proceed
    }

    /// A piece of `count` decoded body bytes arrived.
    mutating func receiveBody(count: Int) -> BodyAction {
        guard count > 0 else { return .discard }
        switch disposition {
        case .redirect:
            if bodyBytes + count > RedirectRule.maximumBodyBytes {
                redirectBodyCut = true
                return .stop
            }
            bodyBytes += count
            return .discard
        case .image:
            if bodyBytes + count > limits.maximumBytes {
                stoppedAtCap = true
                bytesReceivedAtCap = bodyBytes + count
                return .stop
            }
            return .deliver
        case .refused, nil:
            return .stop
        }
    }

    /// The sink took a delivered piece (`accepted`), or asked to stop.
    mutating func delivered(count: Int, accepted: Bool) {
        if accepted { bodyBytes += count } else { stoppedBySink = true }
    }

    /// The source stopped waiting for a redirect's body (it was not worth the wait).
    mutating func cutRedirectBody() {
        redirectBodyCut = true
    }

    /// The request in progress ended as `ending` says; returns what to do next.
    mutating func endHop(_ ending: HopEnding) -> Step {
        var facts = ending.facts
        facts.headDecided = disposition != nil
        facts.codings = codings
        facts.contentType = head.values("Content-Type").first
        let lengths = head.listElements("Content-Length")
        if Set(lengths).count == 1, let length = Int(lengths[0]), length >= 0 { facts.contentLength = length }
        report.hops.append(
            TransferHop(
                url: current.absoluteString, status: head.status, location: head.location, bodyBytes: bodyBytes,
                newConnection: ending.newConnection, curlCode: ending.curlCode, endMilliseconds: ending.endMilliseconds, facts: facts,
                rawHead: rawHead, statusLine: head.statusLine, fields: head.fields))
        if ending.cancelled {
            report.cancelled = true
            return .finished
        }
        // A redirect is followed on its complete head, however its body ended (complete, cut at its
        // limit, left unread, or closed early): URLSession never reads it.
        guard disposition == .redirect else { return .finished }
        switch RedirectRule.next(
            from: current, status: head.status, location: head.location, number: report.hops.count, maximum: limits.maximumRedirects)
        {
        case .success(let next):
            current = next
            report.transportSecurity = transportSecurityPolicy.security(forHost: next.host)
            return .request(next)
        case .failure(let refusal):
            report.refusal = refusal
            return .finished
        }
    }

    /// The report of the chain, ended as `ending` says.
    func finish(_ ending: ChainEnding) -> TransferReport {
        var report = self.report
        report.curlCode = ending.curlCode
        report.curlMessage = ending.message
        report.undetermined = ending.undetermined
        guard !ending.beforeFirstRequest else { return report }
        report.status = head.status
        report.bytesWritten = disposition == .redirect ? 0 : bodyBytes
        if report.refusal == nil, case .refused(let refusal) = disposition { report.refusal = refusal }
        report.stoppedAtCap = stoppedAtCap
        report.bytesReceivedAtCap = bytesReceivedAtCap
        report.stoppedBySink = stoppedBySink
        report.tlsRule = ending.tlsRule
        report.clientCertificateRequested = ending.clientCertificateRequested
        report.contentCodings = codings
        report.elapsedMilliseconds = ending.elapsedMilliseconds
        return report
    }
}
