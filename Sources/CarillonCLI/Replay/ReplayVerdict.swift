@_spi(Tooling) import CarillonExtensionCore

/// When a replay's verdict rests on data the recording does not hold, the reason is `undetermined`
/// and the detail names what is missing (SPEC §3, §9).
enum ReplayVerdict {
    /// The detail of an `undetermined` verdict, or nil when the recording held what the decisions needed.
    static func undetermined(transport: RecordedTransport, transfer: HARTransfer, trace: DownloadTrace?) -> String? {
        if let gap = transport.gaps.first {
            switch gap {
            case .hop(let url): return "redirect target not in the HAR: '\(url)'"
            case .body(let url, let why): return transfer.missingBodies[url] ?? "the body of '\(url)' is not in the HAR: \(why)"
            case .response(let url, let why): return "no response for '\(url)' in the HAR: \(why)"
            }
        }
        for hop in trace?.hops ?? [] {
            if let error = transfer.noResponse[hop.url] {
                return "the capture has no response for '\(hop.url)' (status 0): \(error)"
            }
        }
        return nil
    }
}
