extension HARCarillon {
    /// One connection of `log._carillon.connections` as read: its id, TLS version, cipher and group,
    /// whether a certificate was requested and the session resumed, the chain as the server sent it
    /// (base64 DER, leaf first), the connection a refused handshake was asked again on (`offered`), and
    /// its marks (`relaxed_tls`, `opened_earlier`). Nil without an id (no hop can name it); a
    /// certificate whose base64 is broken is left out of its chain.
    static func connection(_ item: JSONValue) -> RecordedConnection? {
        guard let id = item["id"]?.stringValue, !id.isEmpty else { return nil }
        let tls = item["tls"]
        var recorded = RecordedConnection(id: id)
        if let version = tls?["version"]?.stringValue, let cipher = tls?["cipher"]?.stringValue {
            recorded.tls = DownloadTrace.TLS(version: version, cipher: cipher)
            recorded.tls?.group = tls?["group"]?.stringValue
        }
        recorded.certificateRequested = tls?["certificate_requested"] == .bool(true)
        recorded.resumed = tls?["resumed"] == .bool(true)
        recorded.offered = item["offered"]?.stringValue
        recorded.relaxedTLS = item["relaxed_tls"] == .bool(true)
        recorded.openedEarlier = item["opened_earlier"] == .bool(true)
        if case .array(let certificates)? = item["chain"]?["certs"] {
            recorded.chain = certificates.compactMap { $0.stringValue.flatMap { try? Base64.decode($0) } }
        }
        return recorded
    }

    /// One connection as written; the marks only when set.
    static func json(_ connection: RecordedConnection) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("id", .string(connection.id)),
            (
                "tls",
                connection.tls.map { tls in
                    [
                        "version": .string(tls.version), "cipher": .string(tls.cipher), "group": tls.group.map { .string($0) } ?? .null,
                        "resumed": .bool(connection.resumed), "certificate_requested": .bool(connection.certificateRequested),
                    ]
                } ?? .null
            ),
            ("chain", ["encoding": "base64-der", "certs": .array(connection.chain.map { .string(Base64.encode($0)) })]),
        ]
        if let offered = connection.offered { members.append(("offered", .string(offered))) }
        if connection.relaxedTLS { members.append(("relaxed_tls", true)) }
        if connection.openedEarlier { members.append(("opened_earlier", true)) }
        return .object(members)
    }
}
