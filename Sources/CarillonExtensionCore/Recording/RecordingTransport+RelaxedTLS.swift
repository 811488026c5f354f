extension RecordingTransport {
    /// The settings of the second request made for a handshake refused for its protocol or cipher
    /// suite: the loosest App Transport Security's exceptions reach (TLS 1.0 up, RSA key exchange
    /// allowed; OpenSSL's security level 0, which TLS 1.0 and 1.1 need). Every setting a replay can be
    /// asked to judge under offers a subset of these suites and versions, so the server's choice from
    /// this offer is the one that decides them. The certificate, its host name, trust and the ATS
    /// certificate rules are checked as always.
    static let relaxedSecurity = TransportSecurity(minimumTLS: .v1_0, requiresForwardSecrecy: false)

    /// `download` and, when its last request's handshake was refused for its TLS protocol or cipher
    /// suite (before any certificate came), the same request made again with ``relaxedSecurity``: what
    /// that server offers and answers, for a replay under looser settings (``OfferedHandshake``).
    ///
    /// The second download's connections are renamed `r1`, `r2`... and its hops marked
    /// ``RecordedHop/relaxedTLS``; the refused connection names the first as ``RecordedConnection/offered``.
    /// It is made after the live verdict, on its own handles and connections, and never changes it. Its
    /// final body is staged in ``bodiesDirectory``, as the first's.
    package func askingRelaxed(_ download: RecordedDownload) -> (download: RecordedDownload, relaxed: RecordedDownload?) {
        guard let refused = RecordingTransport.refusedForProtocolOrSuite(download.transfer, security: configuration.transportSecurity),
            let url = try? ImageURL(validating: download.transfer.hops[refused.hop].url)
        else { return (download, nil) }
        var relaxedConfiguration = configuration
        relaxedConfiguration.transportSecurityPolicy = TransportSecurityPolicy(standard: RecordingTransport.relaxedSecurity)
        let second = RecordingTransport(configuration: relaxedConfiguration, expireAfter: expireAfter, bodiesDirectory: bodiesDirectory)
        _ = try? second.download(url, cancellation: DownloadCancellation()) { _ in true }
        guard var relaxed = second.take(url.absoluteString) else { return (download, nil) }
        relaxed.transfer = RecordingTransport.markedRelaxed(relaxed.transfer)
        var live = download
        live.transfer.connections[refused.connection].offered = relaxed.transfer.hops.first?.connection
        return (live, relaxed)
    }

    /// The last hop of `transfer` and its connection (indices), when that hop's new connection was
    /// refused in the handshake before any certificate, with words that name a protocol or suite rule
    /// of `security`.
    static func refusedForProtocolOrSuite(_ transfer: RecordedTransfer, security: TransportSecurity) -> (hop: Int, connection: Int)? {
        guard let index = transfer.hops.indices.last else { return nil }
        let hop = transfer.hops[index]
        guard hop.newConnection, hop.statusLine.isEmpty, hop.rawHead == nil, CurlCode.tlsCodes.contains(hop.end.curlCode),
            security.handshakeRule(hop.end.message) != nil,
            let connection = transfer.connections.firstIndex(where: { $0.id == hop.connection }),
            transfer.connections[connection].chain.isEmpty
        else { return nil }
        return (index, connection)
    }

    /// `transfer` as the relaxed request's: its hops marked, its connections `r1`, `r2`... (never a
    /// live connection's id).
    static func markedRelaxed(_ transfer: RecordedTransfer) -> RecordedTransfer {
        func renamed(_ id: String?) -> String? {
            id.map { $0.hasPrefix("c") ? "r" + $0.dropFirst() : "r-" + $0 }
        }
        var marked = transfer
        for index in marked.hops.indices {
            marked.hops[index].relaxedTLS = true
            marked.hops[index].connection = renamed(marked.hops[index].connection)
        }
        for index in marked.connections.indices {
            marked.connections[index].id = renamed(marked.connections[index].id) ?? ""
            marked.connections[index].relaxedTLS = true
        }
        return marked
    }
}
