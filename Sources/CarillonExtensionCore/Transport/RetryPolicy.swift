/// When a failed API request is tried again: exponential backoff with full jitter, honouring the
/// server's `Retry-After`, within a number of attempts and an overall deadline. Pure: the random source
/// is a parameter, so every decision is tested from tables.
///
/// Attempt *n* failed (n ≥ 1) → wait a uniformly random whole number of milliseconds in
/// `0 ... min(cap, base × 2^(n−1))` ("full jitter", as AWS's architecture blog names it: clients that
/// failed together do not retry together). A `Retry-After` replaces that draw: the server said when.
/// No wait outlasts the deadline: a retry that could not start before it is not made.
public struct RetryPolicy: Sendable, Equatable {
    /// The first backoff's ceiling (default 500 ms).
    public var base: Duration
    /// No backoff's ceiling exceeds this (default 30 s). `Retry-After` is not capped by it: only the
    /// deadline bounds the server's wish.
    public var cap: Duration
    /// Requests made for one batch at most, the first included (default 5).
    public var maximumAttempts: Int
    /// The whole operation's wall time, every request and wait included (default 60 s).
    public var deadline: Duration

    /// 500 ms base, 30 s cap, 5 attempts per batch, 60 s for the whole upload.
    public static let standard = RetryPolicy()

    /// A policy; values below their minimum (0 ms, 1 attempt, 1 ms) are raised to it.
    public init(
        base: Duration = .milliseconds(500), cap: Duration = .seconds(30), maximumAttempts: Int = 5, deadline: Duration = .seconds(60)
    ) {
        self.base = max(base, .zero)
        self.cap = max(cap, .zero)
        self.maximumAttempts = max(maximumAttempts, 1)
        self.deadline = max(deadline, .milliseconds(1))
    }

    /// The backoff's ceiling after `failedAttempt` failures: `min(cap, base × 2^(failedAttempt−1))`,
    /// computed without overflow.
    public func ceiling(afterAttempt failedAttempt: Int) -> Duration {
        var ceiling = min(base, cap)
        var doublings = max(failedAttempt - 1, 0)
        while doublings > 0 && ceiling < cap {
            ceiling = ceiling > cap / 2 ? cap : ceiling * 2
            doublings -= 1
        }
        return min(ceiling, cap)
    }

    /// What to do after attempt `failedAttempt` of a batch failed in a retryable way.
    public enum Decision: Sendable, Equatable {
        /// Wait this long, then try again.
        case retry(after: Duration)
        /// Stop, and why.
        case giveUp(GiveUp)
    }

    /// Why no retry follows: a value, worded by whoever shows it.
    public enum GiveUp: Sendable, Equatable {
        /// ``maximumAttempts`` requests were made.
        case attemptsMade(Int)
        /// The next wait (the server's `Retry-After`, or the backoff) would pass ``deadline``.
        case waitPassesDeadline(wait: Duration, serverAsked: Bool, deadline: Duration)
    }

    /// The decision after a retryable failure.
    ///
    /// - Parameters:
    ///   - failedAttempt: the number of the attempt that failed (1 for the first request).
    ///   - retryAfter: the response's `Retry-After`, already read (`RetryAfter`), or nil.
    ///   - elapsed: how long the upload has run.
    ///   - random: returns a whole number of milliseconds in `0 ... upper` (uniform); the tool passes the
    ///     system's.
    public func decide(
        failedAttempt: Int, retryAfter: Duration?, elapsed: Duration, random: (_ upper: Int) -> Int
    ) -> Decision {
        guard failedAttempt < maximumAttempts else {
            return .giveUp(.attemptsMade(maximumAttempts))
        }
        let wait: Duration
        if let retryAfter {
            wait = max(retryAfter, .zero)
        } else {
            let upper = Int(clamping: ceiling(afterAttempt: failedAttempt).wholeMilliseconds)
            wait = .milliseconds(min(max(random(upper), 0), upper))
        }
        guard wait < deadline - elapsed else {
            return .giveUp(.waitPassesDeadline(wait: wait, serverAsked: retryAfter != nil, deadline: deadline))
        }
        return .retry(after: wait)
    }

    /// "60", "0.5": a duration as seconds for a sentence, to the millisecond.
    public static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1000 == 0 ? String(milliseconds / 1000) : String(Double(milliseconds) / 1000)
    }
}
