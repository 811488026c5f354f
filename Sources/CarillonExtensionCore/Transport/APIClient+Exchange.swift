/// A request made until it has an answer the caller takes: a retryable answer (by the caller's rule,
/// e.g. no response, 408, 429, 5xx) is tried again by the ``RetryPolicy`` — exponential backoff with
/// full jitter, the server's `Retry-After` honoured — within its attempts and its deadline.
extension APIClient {
    /// One attempt of an exchange.
    struct Attempt: Sendable {
        /// The attempt's number, from 1.
        var number: Int
        /// What came back.
        var response: Response
        /// How long the request took.
        var elapsed: Duration
        /// The wait before the next attempt, when one follows.
        var wait: Duration?
    }

    /// How an exchange ended.
    enum Ending: Sendable {
        /// An answer the caller's rule does not retry (a 2xx, a refusal, …).
        case answered(Attempt)
        /// The last attempt was retryable, and the policy says no more.
        case gaveUp(Attempt, RetryPolicy.GiveUp)
        /// The deadline had passed before an attempt could start.
        case deadlinePassed
    }

    /// Makes the request until it ends, calling `onRetry` after every attempt that is tried again (its
    /// wait set), before the wait.
    ///
    /// - Parameters:
    ///   - policy: attempts and deadline; the deadline counts from `started`.
    ///   - started: when the caller's whole operation began (an upload's deadline spans every batch).
    ///   - isRetryable: the caller's rule for an answer that is tried again.
    ///   - random: the jitter's source (a whole number in `0 ... upper`).
    ///   - sleep: the wait.
    func exchange(
        _ method: Method, _ path: String, body: [UInt8] = [], policy: RetryPolicy, started: ContinuousClock.Instant,
        isRetryable: (Response) -> Bool, random: (_ upper: Int) -> Int, sleep: (Duration) -> Void,
        onRetry: (Attempt) -> Void = { _ in }
    ) -> Ending {
        var number = 0
        while true {
            number += 1
            let left = policy.deadline - (ContinuousClock.now - started)
            guard left > .zero else { return .deadlinePassed }
            let requestStart = ContinuousClock.now
            let response = perform(method, path, body: body, timeout: left)
            var attempt = Attempt(number: number, response: response, elapsed: ContinuousClock.now - requestStart)
            guard isRetryable(response) else { return .answered(attempt) }
            let retryAfter = response.retryAfter.flatMap { RetryAfter.wait($0, now: .now()) }
            switch policy.decide(failedAttempt: number, retryAfter: retryAfter, elapsed: ContinuousClock.now - started, random: random) {
            case .giveUp(let why): return .gaveUp(attempt, why)
            case .retry(let wait):
                attempt.wait = wait
                onRetry(attempt)
                sleep(wait)
            }
        }
    }
}
