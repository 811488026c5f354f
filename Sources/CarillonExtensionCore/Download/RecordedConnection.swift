/// One TLS connection, as recorded.
package struct RecordedConnection: Sendable, Equatable {
    /// The id hops name it by.
    package var id: String
    /// The negotiated protocol and cipher, when known (OpenSSL's names).
    package var tls: DownloadTrace.TLS?
    /// The server sent a CertificateRequest.
    package var certificateRequested: Bool
    /// The certificates the server sent, leaf first, DER; empty when not recorded (or a resumed
    /// session, which sends none).
    package var chain: [[UInt8]]
    /// The session was resumed: no chain was sent on it.
    package var resumed: Bool
    /// For a connection whose handshake was refused for its protocol or cipher suite: the id of the
    /// connection the same request made with those rules relaxed (its hops are ``RecordedHop/relaxedTLS``),
    /// whose negotiated protocol, suite and chain are what this server offered; nil when not asked.
    package var offered: String?
    /// The connection was made for the request asked again with relaxed TLS rules (``RecordedHop/relaxedTLS``).
    package var relaxedTLS = false
    /// The connection was opened by an earlier download and kept (a transport reuses its connections):
    /// its TLS facts and chain are the ones it was opened with, and a replay judges them when the first
    /// request on it is made, as a download on a fresh transport would have had to.
    package var openedEarlier = false

    /// A recorded connection.
    package init(
        id: String, tls: DownloadTrace.TLS? = nil, certificateRequested: Bool = false, chain: [[UInt8]] = [], resumed: Bool = false,
        offered: String? = nil
    ) {
        self.id = id
        self.tls = tls
        self.certificateRequested = certificateRequested
        self.chain = chain
        self.resumed = resumed
        self.offered = offered
    }
}
