/// The form a HAR's URLs and the extension's are compared in (design §5.5 step 2, §5.6): on both sides
/// the secret query values are redacted as a recording redacts them (``Redaction``), so a payload still
/// carrying the live token matches its recording; then scheme and host are lowercased, the default
/// port and the fragment dropped, and the ignored query parameters removed.
package struct HARURLComparison: Sendable {
    /// Query parameters that change from one request to the next without changing the answer and are
    /// no secret (signed URLs' dates and lifetimes): ignored by default.
    package static let defaultIgnoredQuery: Set<String> = ["x-amz-date", "x-amz-expires", "expires", "x-goog-date", "x-goog-expires"]

    /// Query parameter names ignored in comparisons, lowercased.
    package let ignoredQuery: Set<String>

    /// A comparison ignoring the query parameters named in `ignoredQuery` (any case).
    package init(ignoredQuery: Set<String> = HARURLComparison.defaultIgnoredQuery) {
        self.ignoredQuery = Set(ignoredQuery.map { $0.lowercased() })
    }

    /// `url` as compared: redacted, normalised, the ignored query parameters removed (the others kept
    /// in their order).
    package func comparable(_ url: String) -> String {
        // A value already redacted (a carillon recording's) stays as it is; a live one becomes its stand-in.
        let secrets = Redaction.secrets(inURL: url).filter { !$0.hasPrefix("[redacted:") }
        let parts = URLReference.split(secrets.isEmpty ? url : Redaction.redact(url, secrets: secrets))
        var text = (parts.scheme.map { $0.lowercased() + ":" } ?? "")
        if var authority = parts.authority.map({ $0.lowercased() }) {
            let scheme = parts.scheme?.lowercased()
            if scheme == "https", authority.hasSuffix(":443") { authority.removeLast(4) }
            if scheme == "http", authority.hasSuffix(":80") { authority.removeLast(3) }
            text += "//" + authority
        }
        text += parts.path.isEmpty && parts.authority != nil ? "/" : String(parts.path)
        if let query = parts.query {
            let kept = query.split(separator: "&", omittingEmptySubsequences: false).filter { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return !ignoredQuery.contains(name.lowercased())
            }
            if !kept.isEmpty { text += "?" + kept.joined(separator: "&") }
        }
        return text
    }

    /// This comparison as the recorded source's match, for redirect targets.
    package var match: RecordedURLMatch {
        let comparison = self
        return RecordedURLMatch { comparison.comparable($0) }
    }
}
