/// The time a replay holds a recording's times against (SPEC §9, round five: time is a verdict): the
/// download's budget and time-will-expire, whichever comes first, counted from the download's start
/// (time-will-expire counts from delivery, a moment before: the receipt's write), over the requests of
/// the chain one after the other. A pure decision, tested from a table; the recorded source acts on it.
package struct RecordedDeadline: Sendable, Equatable {
    /// Which limit it is.
    package enum Kind: Sendable, Equatable {
        /// The download's time budget: the transfer ends as libcurl's timeout ends it.
        case budget
        /// Time-will-expire: the download is cancelled and the original content delivered.
        case expiry
    }

    /// Where a request was when the time ran out.
    struct Cut: Sendable, Equatable {
        /// Microseconds into the request.
        var at: Int64
        /// The request's cumulative steps as far as they were reached by then (name looked up, connected,
        /// TLS done, first byte; 0 when not reached), then the request's total: `at`.
        var microseconds: [Int64]
        /// The handshake had completed (or none was needed: a reused connection).
        var handshakeDone: Bool
        /// The first byte of the response head had come.
        var headArrived: Bool
    }

    var kind: Kind
    /// Microseconds from the download's start.
    var limit: Int64

    /// The earlier of `budget` and `expireAfter` (the budget when they are equal, as libcurl's own
    /// timer and the wait for time-will-expire race for it and the timer is the transfer's).
    init(budget: Duration, expireAfter: Duration?) {
        let budgetMicroseconds = Self.microseconds(budget)
        if let expireAfter, Self.microseconds(expireAfter) < budgetMicroseconds {
            self.init(kind: .expiry, limit: Self.microseconds(expireAfter))
        } else {
            self.init(kind: .budget, limit: budgetMicroseconds)
        }
    }

    init(kind: Kind, limit: Int64) {
        self.kind = kind
        self.limit = limit
    }

    /// Where the time runs out in a request whose cumulative steps are `steps` (name looked up,
    /// connected, TLS done, first byte, total; 0: not reached), made `elapsed` microseconds into the
    /// download: nil when it ends in time (a request that ended exactly at the limit ended as recorded).
    func cut(_ steps: [Int64], after elapsed: Int64, newConnection: Bool) -> Cut? {
        let steps = Array(steps.prefix(5)) + Array(repeating: 0, count: max(0, 5 - steps.count))
        guard elapsed + steps[4] > limit else { return nil }
        let at = max(0, limit - elapsed)
        let reached = steps.prefix(4).map { $0 <= at ? $0 : 0 }
        return Cut(
            at: at, microseconds: reached + [at], handshakeDone: !newConnection || (steps[2] > 0 && steps[2] <= at),
            headArrived: steps[3] > 0 && steps[3] <= at)
    }

    /// How many of a body's `count` decoded bytes had come `at` microseconds into a request that
    /// started `elapsed` microseconds into the download: from the recorded arrival samples
    /// (milliseconds from the download's start, cumulative bytes) when there are any, else spread
    /// evenly between the first byte and the end of the request.
    static func bodyBytes(
        count: Int, at: Int64, elapsed: Int64, steps: [Int64], arrival: [(milliseconds: Double, bytes: Int)]
    ) -> Int {
        if !arrival.isEmpty {
            let moment = Double(elapsed + at) / 1000
            return min(count, arrival.last { $0.milliseconds <= moment }?.bytes ?? 0)
        }
        let firstByte = steps.count > 3 ? steps[3] : 0
        let total = steps.count > 4 ? steps[4] : 0
        guard total > firstByte, at > firstByte else { return 0 }
        return Int(Double(count) * Double(min(at, total) - firstByte) / Double(total - firstByte))
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .max : whole &+ attoseconds / 1_000_000_000_000
    }
}
