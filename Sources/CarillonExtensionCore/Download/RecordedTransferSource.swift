/// A recording as a ``TransferSource``: each request of the chain is answered by the recorded hop
/// with its URL, fed to the ``TransferFeed`` exactly as libcurl would have fed it (the head line by
/// line, the decoded body in pieces: ``RecordedPieces``), so the same ``TransferMachine`` decides. It opens no socket.
///
/// On a new connection the recorded TLS facts are judged again first, under the configuration's
/// settings: the protocol and suite (``TransportSecurity/refusal(of:)``) and the chain
/// (``CertificateJudgement``, at ``at``). What the recording lacks for a decision is a ``Gap``,
/// listed in ``gaps``: the download then ends `undetermined`, the first gap's words its detail
/// (``Gap/detail(calling:)``); what could not be judged at all is listed in ``unchecked``.
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
    private var used: Set<Int> = []
    /// The hops that answered the chain's requests, in its order (indices into the transfer's hops): a
    /// refused handshake answered from its relaxed request names the relaxed hop, not the refused one.
    package private(set) var answered: [Int] = []
    /// The chain is answered by the hops recorded with relaxed TLS rules (``OfferedHandshake``).
    private var relaxed = false
    private var lastEnding = ChainEnding(curlCode: 0, message: "")

    /// A source answering from `transfer`, judging certificates at `at` under `configuration`, finding
    /// each request's hop by `match`.
    package init(transfer: RecordedTransfer, configuration: DownloadConfiguration, at: Int64, match: RecordedURLMatch = .exact) {
        self.transfer = transfer
        self.at = at
        self.match = match
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
        var refused = hop.newConnection ? handshake(url, connection) : nil
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
        // The handshake, judged now, decides before a response the recording does not hold.
        if let words = hop.end.unanswered { gaps.append(.response(url: wanted, why: words)) }
        if CurlCode.tlsCodes.contains(hop.end.curlCode) && hop.statusLine.isEmpty && hop.rawHead == nil {
            gaps.append(.response(url: wanted, why: "the recorded handshake failed, and the chain is accepted now"))
            return .ended(ending)
        }
        if let stopped = play(hop, into: feed) {
            ending.curlCode = stopped
            lastEnding.curlCode = stopped
            lastEnding.message = "Failed writing received data to disk/application"
        }
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
        let judged = CertificateJudgement(chain: connection.chain, host: url.host, at: at, extraCAFile: extraCAFile)
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

    /// Feeds the head and the body of `hop`; returns the code the transfer stopped with when the feed
    /// stopped it, nil when it ran as recorded.
    private mutating func play(_ hop: RecordedHop, into feed: TransferFeed) -> Int32? {
        for line in RecordedTransferSource.headLines(hop) where !feed.headLine(line) {
            return RecordedTransferSource.writeError
        }
        guard feed.machine.disposition != nil else { return nil }
        if case .refused = feed.machine.disposition { return nil }
        var stopped = false
        switch hop.body {
        case .bytes(let bytes):
            stopped = !RecordedPieces.feed(bytes, lastPiece: hop.lastPiece, into: feed)
        case .file(let path):
            do throws(FileSystemError) {
                stopped = try !RecordedPieces.feed(file: path, lastPiece: hop.lastPiece, into: feed)
            } catch {
                gaps.append(.body(url: hop.url, why: "the body of '\(hop.url)' cannot be read: \(error.reason)"))
            }
        case .absent(let why):
            if feed.machine.disposition != .redirect { gaps.append(.body(url: hop.url, why: why)) }
        }
        if stopped { return RecordedTransferSource.writeError }
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
