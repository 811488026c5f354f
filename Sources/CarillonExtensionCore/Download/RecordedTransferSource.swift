/// A recording as a ``TransferSource``: each request of the chain is answered by the recorded hop
/// with its URL, fed to the ``TransferFeed`` exactly as libcurl would have fed it (the head line by
/// line, the decoded body in pieces: ``RecordedPieces``), so the same ``TransferMachine`` decides. It opens no socket.
///
/// On a new connection the recorded TLS facts are judged again first, under the configuration's
/// settings: the protocol and suite (``TransportSecurity/refusal(of:)``) and the chain
/// (``CertificateJudgement``, at ``at``). What the recording lacks for a decision is a ``Gap``,
/// listed in ``gaps``: the download then ends `undetermined`, the first gap's words its detail
/// (``Gap/detail(calling:)``); what could not be judged at all is listed in ``unchecked``.
///
/// Time is a verdict too: the recorded times of the chain's requests, one after the other, are held
/// against the budget and time-will-expire (``RecordedDeadline``). Where the time runs out first, the
/// request ends there as live it would have (a timeout, or a cancellation), with what had arrived by then.
package struct RecordedTransferSource: TransferSource {
    /// Deciding data a recording lacks.
    package enum Gap: Sendable, Equatable {
        /// No recorded request for this URL (a redirect's target not captured).
        case hop(url: String)
        /// The response's body is needed and not recorded, or recorded only in part; `why` is the whole
        /// detail, naming the request (``RecordedHop/Body/absent(why:)``).
        case body(url: String, why: String)
        /// The response itself is missing: the recording ended before it (a failed handshake then,
        /// accepted now), or holds only its own words for what happened (``RecordedHop/End/unanswered``).
        case response(url: String, why: String)
    }

    /// The recording.
    package let transfer: RecordedTransfer
    /// The instant certificates are judged at, in seconds since 1970.
    package let at: Int64
    /// How a request's URL finds its recorded hop.
    package let match: RecordedURLMatch
    /// The settings the chain and the handshake are judged under, per host.
    let transportSecurityPolicy: TransportSecurityPolicy
    let extraCAFile: String?
    /// What the recording lacked, in the order met.
    package private(set) var gaps: [Gap] = []
    /// Checks that could not be made (e.g. "certificate chain: not recorded for c1").
    package private(set) var unchecked: [String] = []
    /// A chain was judged trusting the recording's extra certificates (``RecordedTransfer/trust``).
    package private(set) var usedRecordedTrust = false
    private var used: Set<Int> = []
    /// The connections whose handshake this download has judged: one opened by an earlier download is
    /// judged on the first request made on it, as a download on its own would have had to.
    private var judged: Set<String> = []
    /// The hops that answered the chain's requests, in its order (indices into the transfer's hops): a
    /// refused handshake answered from its relaxed request names the relaxed hop, not the refused one.
    package private(set) var answered: [Int] = []
    /// When the recorded time runs out.
    let deadline: RecordedDeadline
    /// Microseconds of recorded time the chain's earlier requests took.
    private var elapsed: Int64 = 0
    /// The recorded time ran out before the download ended, at this limit.
    package private(set) var outOfTime: RecordedDeadline.Kind?
    /// The chain is answered by the hops recorded with relaxed TLS rules (``OfferedHandshake``).
    private var relaxed = false
    private var lastEnding = ChainEnding(curlCode: 0, message: "")

    /// A source answering from `transfer`, judging certificates at `at` under `configuration`, finding
    /// each request's hop by `match`; the recorded times are held against the configuration's budget
    /// and `expireAfter` (time-will-expire), when given.
    package init(
        transfer: RecordedTransfer, configuration: DownloadConfiguration, at: Int64, match: RecordedURLMatch = .exact,
        expireAfter: Duration? = nil
    ) {
        self.transfer = transfer
        self.at = at
        self.match = match
        deadline = RecordedDeadline(budget: configuration.limits.budget, expireAfter: expireAfter)
        transportSecurityPolicy = configuration.transportSecurityPolicy
        extraCAFile = configuration.extraCAFile
    }

    mutating func request(_ url: ImageURL, number: Int, feed: TransferFeed) -> TransferStart {
        let wanted = url.absoluteString
        guard
            let index = match.first(
                wanted, in: transfer.hops, where: { !used.contains($0) && transfer.hops[$0].relaxedTLS == relaxed })
        else {
            gaps.append(.hop(url: wanted))
            lastEnding = ChainEnding(curlCode: RecordedTransferSource.noResponse, message: "no recorded response for \(wanted)")
            return .notStarted(code: RecordedTransferSource.noResponse)
        }
        used.insert(index)
        answered.append(index)
        let hop = transfer.hops[index]
        let connection = transfer.connection(hop.connection)
        var facts = TransferHop.Facts()
        facts.httpVersion = hop.httpVersion
        facts.remote = hop.remote
        facts.microseconds = hop.microseconds + Array(repeating: 0, count: max(0, 5 - hop.microseconds.count))
        facts.wireBytes = hop.wireBytes ?? 0
        facts.tls = hop.newConnection ? connection?.tls : nil
        var ending = HopEnding(
            curlCode: hop.end.curlCode, cancelled: hop.end.cancelled, newConnection: hop.newConnection,
            endMilliseconds: hop.endMilliseconds, facts: facts)
        lastEnding = ChainEnding(
            curlCode: hop.end.curlCode, message: hop.end.message, clientCertificateRequested: connection?.certificateRequested ?? false,
            elapsedMilliseconds: hop.endMilliseconds)
        let cut = deadline.cut(facts.microseconds, after: elapsed, newConnection: hop.newConnection)
        if let cut, !cut.handshakeDone { return .ended(timedOut(&ending, at: cut)) }
        let judges = hop.newConnection || (connection.map { $0.openedEarlier && !judged.contains($0.id) } ?? false)
        if let id = connection?.id { judged.insert(id) }
        var refused = judges ? handshake(url, connection) : nil
        if CurlCode.tlsCodes.contains(hop.end.curlCode) && hop.statusLine.isEmpty && hop.rawHead == nil, refused == nil {
            // Refused before any certificate came (a TLS version or cipher suite the server does not
            // offer): the recorded ending is the answer, and libcurl's words name the rule, as live;
            // unless the server's offer, asked for with relaxed rules, passes now or is refused otherwise.
            if let connection, connection.chain.isEmpty, !connection.resumed {
                switch offered(hop, connection) {
                case .asRecorded: return .ended(ending)
                case .refused(let words): refused = ChainEnding(curlCode: CurlCode.sslConnectError, message: "SSL connect error (\(words))")
                case .alternative:
                    relaxed = true
                    answered.removeLast()
                    return request(url, number: number, feed: feed)
                case .undetermined(let why):
                    gaps.append(.response(url: wanted, why: why))
                    return .ended(ending)
                }
            }
        }
        if let refused {
            ending.curlCode = refused.curlCode
            ending.facts.tls = nil
            lastEnding.curlCode = refused.curlCode
            lastEnding.message = refused.message
            lastEnding.tlsRule = refused.tlsRule
            return .ended(ending)
        }
        if let cut, !cut.headArrived { return .ended(timedOut(&ending, at: cut)) }
        // The handshake, judged now, decides before a response the recording does not hold.
        if let words = hop.end.unanswered { gaps.append(.response(url: wanted, why: words)) }
        if CurlCode.tlsCodes.contains(hop.end.curlCode) && hop.statusLine.isEmpty && hop.rawHead == nil {
            gaps.append(.response(url: wanted, why: "the recorded handshake failed, and the chain is accepted now"))
            return .ended(ending)
        }
        let bodyBytes = cut.map { cut in
            RecordedDeadline.bodyBytes(
                count: hop.bodyCount, at: cut.at, elapsed: elapsed, steps: facts.microseconds,
                arrival: hop.arrival.map { ($0.milliseconds, $0.bytes) })
        }
        if let stopped = play(hop, into: feed, upTo: bodyBytes) {
            ending.curlCode = stopped
            lastEnding.curlCode = stopped
            lastEnding.message = "Failed writing received data to disk/application"
            return .ended(ending)
        }
        // A decision on the head came first: a redirect is followed on it, a refusal ends there.
        if let cut, case .image = feed.machine.disposition { return .ended(timedOut(&ending, at: cut)) }
        elapsed += facts.microseconds[4]
        return .ended(ending)
    }

    mutating func chainEnding(code: Int32) -> ChainEnding {
        var ending = lastEnding
        ending.curlCode = code
        ending.undetermined = gaps.first?.detail(calling: transfer.called)
        return ending
    }

    /// The code of a request the recording has no answer for: libcurl's "couldn't connect".
    static let noResponse: Int32 = 7
    /// libcurl's code when a callback stops the transfer.
    static let writeError: Int32 = 23

    /// The handshake judged again: the protocol and suite, then the chain; nil when it passes (or
    /// cannot be judged, which is noted in ``unchecked``).
    private mutating func handshake(_ url: ImageURL, _ connection: RecordedConnection?) -> ChainEnding? {
        guard let connection else {
            unchecked.append("TLS: no connection recorded for \(url.absoluteString)")
            return nil
        }
        // Refused before any certificate, and asked again with relaxed rules: judged from that offer.
        if connection.offered != nil, connection.tls == nil, connection.chain.isEmpty { return nil }
        if let tls = connection.tls, let words = transportSecurityPolicy.security(forHost: url.host).refusal(of: tls) {
            return ChainEnding(curlCode: CurlCode.sslConnectError, message: "SSL connect error (\(words))")
        } else if connection.tls == nil {
            unchecked.append("TLS version and cipher: not recorded for \(connection.id)")
        }
        guard !connection.chain.isEmpty else {
            unchecked.append("certificate chain: not recorded for \(connection.id)\(connection.resumed ? " (a resumed session)" : "")")
            return nil
        }
        let judged = CertificateJudgement(
            chain: connection.chain, host: url.host, at: at, extraCAFile: extraCAFile, extraTrust: transfer.trust)
        if !transfer.trust.isEmpty { usedRecordedTrust = true }
        let problem = "SSL peer certificate or SSH remote key was not OK"
        switch judged.verdict {
        case .accepted:
            return nil
        case .untrusted(let words):
            return ChainEnding(curlCode: CurlCode.peerFailedVerification, message: "\(problem) (SSL certificate problem: \(words))")
        case .brokenRule(let rule):
            return ChainEnding(
                curlCode: CurlCode.peerFailedVerification,
                message: "\(problem) (SSL certificate problem: application verification failure)",
                tlsRule: rule)
        case .unreadable(let index):
            unchecked.append("certificate chain: certificate \(index) of \(connection.id) is not DER")
            return nil
        }
    }

    /// Ends the request where the recorded time ran out (`cut`): as libcurl's timeout ends it under the
    /// budget, or cancelled by time-will-expire, with the steps reached by then.
    private mutating func timedOut(_ ending: inout HopEnding, at cut: RecordedDeadline.Cut) -> HopEnding {
        let milliseconds = Int((elapsed + cut.at + 999) / 1000)
        outOfTime = deadline.kind
        ending.facts.microseconds = cut.microseconds
        if !cut.handshakeDone { ending.facts.tls = nil }
        ending.endMilliseconds = milliseconds
        ending.cancelled = deadline.kind == .expiry
        ending.curlCode = deadline.kind == .expiry ? CurlCode.abortedByCallback : CurlCode.operationTimedOut
        lastEnding = ChainEnding(
            curlCode: ending.curlCode,
            message: deadline.kind == .expiry ? "Operation was aborted by an application callback" : "Timeout was reached",
            elapsedMilliseconds: milliseconds)
        return ending
    }

    /// Feeds the head and the body of `hop` (its first `limit` bytes when given: what had come when the
    /// recorded time ran out); returns the code the transfer stopped with when the feed stopped it, nil
    /// when it ran as recorded.
    private mutating func play(_ hop: RecordedHop, into feed: TransferFeed, upTo limit: Int? = nil) -> Int32? {
        for line in RecordedTransferSource.headLines(hop) where !feed.headLine(line) {
            return RecordedTransferSource.writeError
        }
        guard feed.machine.disposition != nil else { return nil }
        if case .refused = feed.machine.disposition { return nil }
        var stopped = false
        // Cut where the time ran out, the last piece is whatever had come: not the recorded one.
        let lastPiece = limit == nil ? hop.lastPiece : nil
        switch hop.body {
        case .bytes(let bytes):
            stopped = !RecordedPieces.feed(limit.map { Array(bytes.prefix($0)) } ?? bytes, lastPiece: lastPiece, into: feed)
        case .file(let path):
            // The whole file is the body: whoever asked for the image may take it as it is (a link),
            // rather than have every piece written again.
            if limit == nil { _ = feed.offerWhole(file: path) }
            do throws(FileSystemError) {
                stopped = try !RecordedPieces.feed(file: path, lastPiece: lastPiece, limit: limit, into: feed)
            } catch {
                gaps.append(.body(url: hop.url, why: "the body of '\(hop.url)' cannot be read: \(error.reason)"))
            }
        case .absent(let why):
            // Out of time before the body ended, what it held does not matter: the time decides.
            if feed.machine.disposition != .redirect, limit == nil { gaps.append(.body(url: hop.url, why: why)) }
        }
        if stopped { return RecordedTransferSource.writeError }
        if limit != nil { return nil }
        if hop.end.curlCode == RecordedTransferSource.writeError, feed.machine.disposition != .redirect {
            // Live, a decision stopped it; now none did, and the rest was never received.
            gaps.append(
                .body(url: hop.url, why: "the body of '\(hop.url)' ends where the live run stopped it: the rest was never received"))
        }
        return nil
    }

    /// The head's lines as libcurl hands them over: the raw head split after each LF, or the status
    /// line and the fields, then the blank line.
    static func headLines(_ hop: RecordedHop) -> [Substring] {
        if let raw = hop.rawHead {
            var lines: [Substring] = []
            var start = 0
            for (index, byte) in raw.enumerated() where byte == 0x0A {
                lines.append(Substring(String(decoding: raw[start...index], as: UTF8.self)))
                start = index + 1
            }
            if start < raw.count { lines.append(Substring(String(decoding: raw[start...], as: UTF8.self))) }
            return lines
        }
        guard !hop.statusLine.isEmpty else { return [] }
        return [Substring(hop.statusLine + "\r\n")] + hop.fields.map { Substring("\($0.name): \($0.value)\r\n") } + ["\r\n"]
    }
}
