extension RecordedTransfer {
    /// What a live download's report says its servers sent, as a recording keeps it: every hop with
    /// its head as received, one connection per new one (`c1`, `c2`...) with its TLS facts and the
    /// chain its server sent, and the final hop's decoded body as `finalBody` (a redirect's is not kept).
    init(report: TransferReport, finalBody: RecordedHop.Body) {
        var hops: [RecordedHop] = []
        var connections: [RecordedConnection] = []
        for (index, hop) in report.hops.enumerated() {
            if hop.newConnection {
                connections.append(
                    RecordedConnection(
                        id: "c\(connections.count + 1)", tls: hop.facts.tls, certificateRequested: hop.facts.certificateRequested,
                        chain: hop.facts.chain))
            }
            let last = index == report.hops.count - 1
            hops.append(
                RecordedHop(
                    url: hop.url, httpVersion: hop.facts.httpVersion, remote: hop.facts.remote,
                    connection: connections.last?.id, newConnection: hop.newConnection, statusLine: hop.statusLine,
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
