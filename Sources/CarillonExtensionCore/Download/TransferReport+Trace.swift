extension TransferReport {
    /// The transfer trace of this download, with the verified image's geometry when there is one.
    func trace(image: DownloadTrace.Image?) -> DownloadTrace {
        let hops = self.hops.map { hop in
            DownloadTrace.Hop(
                url: hop.url, status: hop.status == 0 ? nil : hop.status, httpVersion: hop.facts.httpVersion,
                remote: hop.facts.remote, location: RedirectRule.followed.contains(hop.status) ? hop.location : nil,
                contentType: hop.facts.contentType, contentLength: hop.facts.contentLength, tls: hop.facts.tls,
                timings: .cumulative(microseconds: Array(hop.facts.microseconds.prefix(4)), total: hop.facts.microseconds.last ?? 0))
        }
        let phase: DownloadTrace.Phase
        if let last = self.hops.last {
            let us = last.facts.microseconds
            let finished = !cancelled && (last.curlCode == CurlCode.ok || (last.facts.headDecided && !stoppedAtCap && refusal != nil))
            phase = .decide(finished: finished, connected: last.facts.remote != nil, dns: us[0], connect: us[1], tls: us[2], firstByte: us[3])
        } else {
            phase = cancelled ? .dns : .done
        }
        return DownloadTrace(hops: hops, bodyBytes: bytesWritten, budgetMilliseconds: budgetMilliseconds, phase: phase, image: image)
    }
}
