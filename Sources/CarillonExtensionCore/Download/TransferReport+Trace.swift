extension TransferReport {
    /// The transfer trace of this download, with the verified image's geometry when there is one.
    func trace(image: DownloadTrace.Image?) -> DownloadTrace {
        let hops = self.hops.enumerated().map { index, hop in
            let stopped = stoppedAtCap && index == self.hops.count - 1
            return DownloadTrace.Hop(
                url: hop.url, status: hop.status == 0 ? nil : hop.status, httpVersion: hop.facts.httpVersion,
                remote: hop.facts.remote, location: RedirectRule.followed.contains(hop.status) ? hop.location : nil,
                contentType: hop.facts.contentType, contentLength: hop.facts.contentLength, tls: hop.facts.tls,
                contentEncoding: hop.facts.codings.isEmpty ? nil : hop.facts.codings.joined(separator: ", "),
                wireBytes: stopped ? bytesAtCap.wire : hop.facts.wireBytes, decodedBytes: stopped ? bytesAtCap.decoded : hop.bodyBytes,
                timings: .cumulative(microseconds: Array(hop.facts.microseconds.prefix(4)), total: hop.facts.microseconds.last ?? 0))
        }
        return DownloadTrace(
            hops: hops, requestHeaders: requestHeaders, bodyBytes: bytesWritten, budget: budget, phase: endPhase,
            image: image)
    }

    /// The body that passed the cap, counted once for the detail and the trace: the decoded bytes
    /// received by then (the piece that passed included, though it was never kept) and the wire bytes
    /// they came from. Without a content coding they are the same bytes, whatever libcurl had counted
    /// when the write was refused.
    var bytesAtCap: (decoded: Int, wire: Int) {
        let wire = hops.last?.facts.wireBytes ?? 0
        return (bytesReceivedAtCap, contentCodings.isEmpty ? max(wire, bytesReceivedAtCap) : wire)
    }

    /// Where the transfer was when it ended (``DownloadTrace/Phase/decide(finished:connected:dns:connect:tls:firstByte:)``).
    var endPhase: DownloadTrace.Phase {
        guard let last = hops.last else { return cancelled ? .dns : .done }
        let us = last.facts.microseconds
        let finished = !cancelled && (last.curlCode == CurlCode.ok || (last.facts.headDecided && !stoppedAtCap && refusal != nil))
        return .decide(
            finished: finished, connected: last.facts.remote != nil, newConnection: last.newConnection, dns: us[0], connect: us[1],
            tls: us[2], firstByte: us[3])
    }
}
