extension TransferReport {
    /// The transfer trace of this download, with the verified image's geometry when there is one.
    func trace(image: DownloadTrace.Image?) -> DownloadTrace {
        let hops = self.hops.map { hop in
            DownloadTrace.Hop(
                url: hop.url, status: hop.status == 0 ? nil : hop.status, httpVersion: hop.facts.httpVersion,
                remote: hop.facts.remote, location: RedirectRule.followed.contains(hop.status) ? hop.location : nil,
                contentType: hop.facts.contentType, contentLength: hop.facts.contentLength, tls: hop.facts.tls,
                contentEncoding: hop.facts.codings.isEmpty ? nil : hop.facts.codings.joined(separator: ", "),
                wireBytes: hop.facts.wireBytes, decodedBytes: hop.bodyBytes,
                timings: .cumulative(microseconds: Array(hop.facts.microseconds.prefix(4)), total: hop.facts.microseconds.last ?? 0))
        }
        return DownloadTrace(
            hops: hops, requestHeaders: requestHeaders, bodyBytes: bytesWritten, budget: budget, phase: endPhase,
            image: image)
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
