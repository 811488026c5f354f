@_spi(Tooling) import CarillonExtensionCore

/// The images whose verdict differs between the shards of one campaign (SPEC §6c), from each shard's
/// per-image summary: under `--shard-by position` each shard fetches an image itself, and a flaky or
/// geo-dependent CDN answers them differently.
enum VerdictSpread {
    /// One line per such image, in order of first appearance: "URL: verdicts differ between shards:
    /// attached in 0/2, http-status in 1/2".
    static func lines(_ shards: [(shard: Shard, summary: JSONValue?)]) -> [String] {
        var order: [String] = []
        var verdicts: [String: [(shard: Shard, reason: String)]] = [:]
        for (shard, summary) in shards.sorted(by: { $0.shard.index < $1.shard.index }) {
            guard case .array(let images)? = summary?["images"] else { continue }
            for image in images {
                guard case .string(let url)? = image["url"], case .string(let reason)? = image["reason"],
                    image["verdict"] != .string("undecided")
                else { continue }
                if verdicts[url] == nil { order.append(url) }
                verdicts[url, default: []].append((shard, reason))
            }
        }
        return order.compactMap { url in
            guard let found = verdicts[url], Set(found.map(\.reason)).count > 1 else { return nil }
            let list = found.map { "\($0.reason) in \($0.shard)" }.joined(separator: ", ")
            return "\(url): verdicts differ between shards: \(list)"
        }
    }
}
