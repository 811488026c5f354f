/// How a ``RecordedTransferSource`` tells which recorded request answers a request of the chain: the
/// same URL text first, else the same ``key``. Exact by default; a reader supplies the normalisation
/// its recordings need (a HAR's: redacted on both sides, volatile query parameters ignored).
package struct RecordedURLMatch: Sendable {
    /// The form two URLs are compared in.
    package let key: @Sendable (String) -> String

    /// A match comparing `key(a) == key(b)`.
    package init(key: @escaping @Sendable (String) -> String) {
        self.key = key
    }

    /// URLs compared as written.
    package static let exact = RecordedURLMatch { $0 }

    /// The first hop of `hops` that `isFree` allows whose URL is `wanted`, or else whose URL has
    /// `wanted`'s key; nil when none.
    package func first(_ wanted: String, in hops: [RecordedHop], where isFree: (Int) -> Bool) -> Int? {
        if let same = hops.indices.first(where: { isFree($0) && hops[$0].url == wanted }) { return same }
        let wantedKey = key(wanted)
        return hops.indices.first { isFree($0) && key(hops[$0].url) == wantedKey }
    }
}
