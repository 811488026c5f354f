extension RecordedTransfer {
    /// What a live download's report says its servers sent, as a recording keeps it: every hop with
    /// its head as received, one connection per new one (`c1`, `c2`...) with its TLS facts and the
    /// chain its server sent (and one an earlier download opened, with the handshake it was opened with), and the final hop's decoded body as `finalBody` (a redirect's is not kept).
    init(report: TransferReport, finalBody: RecordedHop.Body) {
        var hops: [RecordedHop] = []
        var connections: [RecordedConnection] = []
        // Each connection once, by the transport's identity: a request reusing one names it.
        var named: [UInt: String] = [:]
        for (index, hop) in report.hops.enumerated() {
            var connection = connections.last?.id
            if hop.newConnection {
                connection = "c\(connections.count + 1)"
                connections.append(
                    RecordedConnection(
                        id: "c\(connections.count + 1)", tls: hop.facts.tls, certificateRequested: hop.facts.certificateRequested,
                        chain: hop.facts.chain))
            } else if let identity = hop.facts.connectionIdentity, let known = named[identity] {
                connection = known
            } else if hop.facts.connectionTLS != nil || !hop.facts.chain.isEmpty {
                // Opened by an earlier download and kept: recorded with the handshake it was opened with.
                connection = "c\(connections.count + 1)"
                var earlier = RecordedConnection(
                    id: "c\(connections.count + 1)", tls: hop.facts.connectionTLS, certificateRequested: hop.facts.certificateRequested,
                    chain: hop.facts.chain)
                earlier.openedEarlier = true
                connections.append(earlier)
            }
            if let identity = hop.facts.connectionIdentity, let connection { named[identity] = connection }
            let last = index == report.hops.count - 1
            hops.append(
                RecordedHop(
                    url: hop.url, httpVersion: hop.facts.httpVersion, remote: hop.facts.remote,
                    connection: connection, newConnection: hop.newConnection, statusLine: hop.statusLine,
                    fields: hop.fields,
                    rawHead: hop.rawHead.isEmpty ? nil : hop.rawHead,
                    body: last ? finalBody : .absent(why: "a redirect's body is not kept"), wireBytes: hop.facts.wireBytes,
                    end: RecordedHop.End(
                        curlCode: hop.curlCode, message: last ? report.curlMessage : "", cancelled: last && report.cancelled),
                    microseconds: hop.facts.microseconds, endMilliseconds: hop.endMilliseconds))
        }
        self.init(hops: hops, connections: connections)
    }
}
