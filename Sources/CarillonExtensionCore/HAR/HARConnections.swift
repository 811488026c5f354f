/// The connections a carillon recording keeps under `log._carillon.connections` (format 1): each one's
/// id, TLS version and cipher, whether a certificate was requested, whether the session was resumed,
/// and the chain as the server sent it (base64 DER, leaf first); for a handshake refused for its
/// protocol or suite, the connection the request was made again on with relaxed rules (`offered`). A
/// replay judges them as a live run judges the handshake it has just seen, at the instant it is asked about.
package enum HARConnections {
    /// The connections of `carillon` (`log._carillon`); empty when there are none. A connection without
    /// an id is skipped (no hop can name it); a certificate whose base64 is broken is left out of its chain.
    package static func read(_ carillon: JSONValue?) -> [RecordedConnection] {
        guard case .array(let items)? = carillon?["connections"] else { return [] }
        return items.compactMap { item in
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
            if case .array(let certificates)? = item["chain"]?["certs"] {
                recorded.chain = certificates.compactMap { $0.stringValue.flatMap { try? Base64.decode($0) } }
            }
            return recorded
        }
    }
}

extension HARConnections {
    /// The App Transport Security settings `log._carillon.options` says the recording was made under
    /// (`tls_minimum`, `forward_secrecy`); nil when it does not say both.
    package static func recordedSecurity(_ carillon: JSONValue?) -> TransportSecurity? {
        guard let options = carillon?["options"], let minimum = options["tls_minimum"]?.stringValue,
            let version = TransportSecurity.TLSVersion(rawValue: minimum), case .bool(let forwardSecrecy)? = options["forward_secrecy"]
        else { return nil }
        return TransportSecurity(minimumTLS: version, requiresForwardSecrecy: forwardSecrecy)
    }
}
