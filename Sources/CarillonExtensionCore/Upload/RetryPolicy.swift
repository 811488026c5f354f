/// When a failed `POST /v1/events` is tried again: exponential backoff with full jitter, honouring the
/// server's `Retry-After`, within a number of attempts and an overall deadline. Pure: the random source
/// is a parameter, so every decision is tested from tables.
///
/// Attempt *n* failed (n ≥ 1) → wait a uniformly random whole number of milliseconds in
/// `0 ... min(cap, base × 2^(n−1))` ("full jitter", as AWS's architecture blog names it: clients that
/// failed together do not retry together). A `Retry-After` replaces that draw: the server said when.
/// No wait outlasts the deadline: a retry that could not start before it is not made.
public struct RetryPolicy: Sendable, Equatable {
    /// The first backoff's ceiling, in milliseconds (default 500).
    public var baseMilliseconds: Int
    /// No backoff's ceiling exceeds this, in milliseconds (default 30,000). `Retry-After` is not capped
    /// by it: only the deadline bounds the server's wish.
    public var capMilliseconds: Int
    /// Requests made for one batch at most, the first included (default 5).
    public var maximumAttempts: Int
    /// The whole upload's wall time, in milliseconds (default 60,000).
    public var deadlineMilliseconds: Int

    /// 500 ms base, 30 s cap, 5 attempts per batch, 60 s for the whole upload.
    public static let standard = RetryPolicy()

    /// A policy; values below their minimum (0 ms, 1 attempt, 1 ms) are raised to it.
    public init(baseMilliseconds: Int = 500, capMilliseconds: Int = 30_000, maximumAttempts: Int = 5, deadlineMilliseconds: Int = 60_000) {
        self.baseMilliseconds = max(baseMilliseconds, 0)
        self.capMilliseconds = max(capMilliseconds, 0)
        self.maximumAttempts = max(maximumAttempts, 1)
        self.deadlineMilliseconds = max(deadlineMilliseconds, 1)
    }

    /// The backoff's ceiling after `failedAttempt` failures: `min(cap, base × 2^(failedAttempt−1))`,
    /// computed without overflow.
    public func ceiling(afterAttempt failedAttempt: Int) -> Int {
        var ceiling = min(baseMilliseconds, capMilliseconds)
        var doublings = max(failedAttempt - 1, 0)
        while doublings > 0 && ceiling < capMilliseconds {
            ceiling = ceiling > capMilliseconds / 2 ? capMilliseconds : ceiling * 2
            doublings -= 1
        }
        return min(ceiling, capMilliseconds)
    }

    /// What to do after attempt `failedAttempt` of a batch failed in a retryable way.
    public enum Decision: Sendable, Equatable {
        /// Wait this many milliseconds, then try again.
        case retry(afterMilliseconds: Int)
        /// Stop: the events stay queued. Says why (attempts used up, or the deadline).
        case giveUp(String)
    }

    /// The decision after a retryable failure.
    ///
    /// - Parameters:
    ///   - failedAttempt: the number of the attempt that failed (1 for the first request).
    ///   - retryAfterMilliseconds: the response's `Retry-After`, already read (`RetryAfter`), or nil.
    ///   - elapsedMilliseconds: how long the upload has run.
    ///   - random: returns a whole number in `0 ... upper` (uniform); the tool passes the system's.
    public func decide(
        failedAttempt: Int, retryAfterMilliseconds: Int?, elapsedMilliseconds: Int, random: (_ upper: Int) -> Int
    ) -> Decision {
        guard failedAttempt < maximumAttempts else {
            return .giveUp("\(maximumAttempts) attempt\(maximumAttempts == 1 ? "" : "s") made (--max-attempts)")
        }
        let wait: Int
        if let retryAfterMilliseconds {
            wait = max(retryAfterMilliseconds, 0)
        } else {
            let upper = ceiling(afterAttempt: failedAttempt)
            wait = min(max(random(upper), 0), upper)
        }
        let left = deadlineMilliseconds - elapsedMilliseconds
        guard wait < left else {
            let why = retryAfterMilliseconds != nil ? "the server's Retry-After (\(wait) ms)" : "the next backoff (\(wait) ms)"
            return .giveUp("\(why) would pass the \(Self.seconds(deadlineMilliseconds)) s deadline (--deadline)")
        }
        return .retry(afterMilliseconds: wait)
    }

    /// "60", "0.5": milliseconds as seconds for a sentence.
    public static func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
    }
}
