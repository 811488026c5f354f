/// One shard of a campaign spread over N processes (SPEC §6a, §6c): shard K of N, 0 ≤ K < N. Which
/// payloads fall to it is the ``ShardRule``'s; N runs with K = 0…N−1 cover every payload once.
package struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// K, from 0.
    package var index: Int
    /// N, at least 1.
    package var count: Int

    /// Shard `index` of `count`; nil unless 0 ≤ index < count.
    package init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N` (decimal digits only) with 0 ≤ K < N; nil when it is not that.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// Whether position sharding gives it the payload at `position` (counted from 0 over all inputs).
    package func takes(_ position: Int) -> Bool { position % count == index }

    /// `K/N`.
    package var description: String { "\(index)/\(count)" }

    /// A whole number written with ASCII digits only (no sign, no space), at most 9 of them: nil otherwise.
    package static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
