/// Which shard a payload falls to (SPEC §6c): by its position over all inputs (the default), or by the
/// image its extension would fetch, so that a fleet downloads each distinct image once.
package enum ShardRule: String, Sendable, CaseIterable {
    /// Position K, K + N, K + 2N… (`position % N`).
    case position
    /// A stable hash of the image URL (after the URL rules) and the options that change a download, `% N`;
    /// a payload whose extension fetches no image goes by its position.
    case image

    /// The shard (0 ≤ result < `count`) of the payload at `position` whose fetched image's key is `imageKey`
    /// (``imageKey(url:downloadOptions:)``; nil: it fetches none).
    package func shard(position: Int, imageKey: String?, count: Int) -> Int {
        guard self == .image, let imageKey else { return position % count }
        return Int(StableHash.hash(imageKey) % UInt64(count))
    }

    /// What sharding by image hashes: the URL as it passed the URL rules, then, after a NUL (which no
    /// valid URL holds), the download options as one canonical text.
    package static func imageKey(url: ImageURL, downloadOptions: String) -> String {
        url.absoluteString + "\u{0}" + downloadOptions
    }

    /// The image a payload's extension fetches: its `carillon.image`, when iOS routes the payload to the
    /// extension and the URL passes the URL rules; nil for every other payload (not routed, no image, a
    /// URL refused before any connection), which fetches nothing.
    package static func fetchedImage(_ payload: Payload) -> ImageURL? {
        guard Routing.decide(payload.userInfo) == nil, case .url(let url) = CarillonStamp(userInfo: payload.userInfo).image else {
            return nil
        }
        return url
    }
}
