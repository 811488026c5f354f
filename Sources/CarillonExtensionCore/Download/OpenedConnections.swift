/// While recording, the handshake facts of the connections one downloader opened (its TLS facts, the
/// chain its server sent, whether it asked for a client certificate), by connection, so that a later
/// download reusing one records the facts it was opened with: its recording is then judged as a fresh
/// handshake would be, instead of holding no certificate. Bounded: the oldest are forgotten first
/// (libcurl keeps a few connections per handle).
struct OpenedConnections {
    struct Opened {
        var tls: DownloadTrace.TLS?
        var chain: [[UInt8]]
        var certificateRequested: Bool
    }

    /// The most connections remembered.
    static let limit = 32
    private var opened: [UInt: Opened] = [:]
    private var order: [UInt] = []

    /// Records a request's connection in `facts`: a new one's handshake is remembered; a reused one
    /// gets the facts it was opened with, when this downloader opened it.
    mutating func remember(_ facts: inout TransferHop.Facts, connection: UInt?, tls: DownloadTrace.TLS?, new: Bool) {
        guard let connection else { return }
        facts.connectionIdentity = connection
        if new {
            if opened.updateValue(
                Opened(tls: tls, chain: facts.chain, certificateRequested: facts.certificateRequested), forKey: connection)
                == nil
            {
                order.append(connection)
            }
            if order.count > Self.limit { opened[order.removeFirst()] = nil }
        } else if let known = opened[connection] {
            facts.connectionTLS = known.tls
            facts.chain = known.chain
            facts.certificateRequested = known.certificateRequested
        }
    }
}
