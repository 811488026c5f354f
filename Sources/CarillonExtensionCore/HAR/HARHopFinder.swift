/// Which entry of a HAR answered a request the extension would make (design §5.5, steps 2 and 3): URLs
/// are compared after the same redaction and normalisation on both sides (``HARURLComparison``), and a redirect's target is looked for
/// among the entries that started after the redirect, as a browser records each hop as an entry.
package struct HARHopFinder: Sendable {
    /// Query parameters ignored when nothing else is said (``HARURLComparison/defaultIgnoredQuery``).
    package static let defaultIgnoredQuery = HARURLComparison.defaultIgnoredQuery

    /// The archive searched.
    package let archive: HARArchive
    /// How URLs are compared.
    package let comparison: HARURLComparison
    /// Query parameter names ignored in comparisons, lowercased.
    package var ignoredQuery: Set<String> { comparison.ignoredQuery }

    /// A finder over `archive`, ignoring the query parameters named in `ignoredQuery` (any case).
    package init(archive: HARArchive, ignoredQuery: Set<String> = HARHopFinder.defaultIgnoredQuery) {
        self.archive = archive
        comparison = HARURLComparison(ignoredQuery: ignoredQuery)
    }

    /// `url` as compared (``HARURLComparison/comparable(_:)``): redacted, scheme and host lowercased,
    /// the default port and the fragment dropped, the ignored query parameters removed.
    package func comparable(_ url: String) -> String { comparison.comparable(url) }

    /// The entry that answered the first request for `url`, and a note when there was a choice: among
    /// several, the first complete 200 that did not come from a cache is preferred (else the first
    /// answer that is not a 304 to a conditional request). The note names the others by their place in
    /// the file, and says so when they answered otherwise, with each one's status.
    package func firstEntry(for url: String) -> (entry: HAREntry, warning: String?)? {
        let wanted = comparable(url)
        let candidates = archive.entries.filter { comparable($0.request.url) == wanted && !HARHopFinder.isRelaxed($0) }
        guard let first = candidates.first else { return nil }
        guard candidates.count > 1 else { return (first, nil) }
        let full =
            candidates.first { $0.response?.status == 200 && $0.hints.fromCache == nil }
            ?? candidates.first { ($0.response?.status ?? 0) > 0 && HARTransfer.conditionalRequest($0) == nil } ?? first
        return (full, HARHopFinder.repeats(candidates, replayed: full))
    }

    /// The entry that answered a request for `url` made after `previous` (a redirect's target): the
    /// first entry for that URL stored after it in start order; nil when the HAR has none.
    package func entry(for url: String, after previous: HAREntry) -> HAREntry? {
        let wanted = comparable(url)
        guard let position = archive.entries.firstIndex(where: { $0.index == previous.index }) else { return nil }
        return archive.entries[(position + 1)...].first { comparable($0.request.url) == wanted && !HARHopFinder.isRelaxed($0) }
    }

    /// The note on the other entries for a URL: "the HAR has 3 entries for this URL: entry 1 was replayed;
    /// entries 0 and 2 answered alike (200)", or, when they answered otherwise, each one's answer.
    static func repeats(_ candidates: [HAREntry], replayed: HAREntry) -> String {
        func answer(_ entry: HAREntry) -> String {
            guard let status = entry.response?.status, status > 0 else { return "no response" }
            return entry.hints.fromCache.map { "\(status) from the browser's cache (\($0))" } ?? String(status)
        }
        let others = candidates.filter { $0.index != replayed.index }.sorted { $0.index < $1.index }
        let start = "the HAR has \(candidates.count) entries for this URL"
        guard others.contains(where: { answer($0) != answer(replayed) }) else {
            return start + ": entry \(replayed.index) was replayed; \(named(others)) answered alike (\(answer(replayed)))"
        }
        let each = others.map { "entry \($0.index) answered \(answer($0))" }.joined(separator: ", ")
        return start + ", which answered differently: entry \(replayed.index) (\(answer(replayed))) was replayed; " + each
    }

    /// "entry 2", "entries 0 and 2", "entries 0, 2 and 5".
    private static func named(_ entries: [HAREntry]) -> String {
        let indices = entries.map { String($0.index) }
        guard indices.count > 1 else { return "entry " + (indices.first ?? "") }
        return "entries " + indices.dropLast().joined(separator: ", ") + " and " + indices[indices.count - 1]
    }

    /// carillon's entry for a request made again with relaxed TLS rules (`_carillon.relaxed_tls`): an
    /// alternative answer the replay reaches through the refused connection, never a hop of its own.
    static func isRelaxed(_ entry: HAREntry) -> Bool {
        entry.carillon?.relaxedTLS == true
    }

    /// Up to three entries on the same host and path as `url` (another query), for an error that
    /// lists the nearest candidates.
    package func nearest(to url: String) -> [HAREntry] {
        let wanted = URLReference.split(comparable(url))
        return Array(
            archive.entries.filter {
                let parts = URLReference.split(comparable($0.request.url))
                return parts.authority == wanted.authority && parts.path == wanted.path
            }
            .prefix(3))
    }
}
