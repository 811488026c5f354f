@_spi(Tooling) import CarillonExtensionCore

/// What a run of several payloads came to, for the stderr summary: counts per reason and the median
/// and 95th percentile of `elapsed_ms`.
struct RunSummary: Equatable {
    /// Each reason with its count, most frequent first (ties by code).
    var counts: [(reason: Reason, count: Int)]
    var medianMilliseconds: Double
    var p95Milliseconds: Double

    static func == (lhs: RunSummary, rhs: RunSummary) -> Bool {
        lhs.counts.map(\.reason) == rhs.counts.map(\.reason) && lhs.counts.map(\.count) == rhs.counts.map(\.count)
            && lhs.medianMilliseconds == rhs.medianMilliseconds && lhs.p95Milliseconds == rhs.p95Milliseconds
    }

    init(counts: [(reason: Reason, count: Int)], medianMilliseconds: Double, p95Milliseconds: Double) {
        self.counts = counts
        self.medianMilliseconds = medianMilliseconds
        self.p95Milliseconds = p95Milliseconds
    }

    /// From each payload's reason and elapsed milliseconds.
    init(_ outcomes: [(reason: Reason, elapsedMilliseconds: Double)]) {
        var tally: [Reason: Int] = [:]
        for outcome in outcomes { tally[outcome.reason, default: 0] += 1 }
        counts = tally.map { (reason: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason.code < $1.reason.code }
        let times = outcomes.map(\.elapsedMilliseconds).sorted()
        medianMilliseconds = Self.percentile(times, 50)
        p95Milliseconds = Self.percentile(times, 95)
    }

    /// The nearest-rank percentile of sorted values (0 for none).
    static func percentile(_ sorted: [Double], _ percent: Int) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = (percent * sorted.count + 99) / 100
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// "5 payloads: 3 attached, 2 timeout; elapsed_ms median 7.812, p95 1004.406"
    var line: String {
        let total = counts.reduce(0) { $0 + $1.count }
        let parts = counts.map { "\($0.count) \($0.reason.code)" }.joined(separator: ", ")
        return
            "\(total) payloads: \(parts); elapsed_ms median \(ResultLine.milliseconds(medianMilliseconds)), p95 \(ResultLine.milliseconds(p95Milliseconds))"
    }
}
