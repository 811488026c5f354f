@_spi(Tooling) import CarillonExtensionCore
import Testing

@Suite struct RetryPolicyTests {
    static let policy = RetryPolicy(baseMilliseconds: 500, capMilliseconds: 30_000, maximumAttempts: 5, deadlineMilliseconds: 60_000)

    @Test(arguments: [
        (1, 500), (2, 1_000), (3, 2_000), (4, 4_000), (5, 8_000), (6, 16_000), (7, 30_000), (8, 30_000), (64, 30_000), (Int.max, 30_000),
        (0, 500),
    ])
    func theCeilingDoublesUpToTheCap(attempt: Int, ceiling: Int) {
        #expect(Self.policy.ceiling(afterAttempt: attempt) == ceiling)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var failedAttempt: Int
        var retryAfter: Int?
        var elapsed: Int
        /// What the random source returns, as a fraction of its upper bound (0 or 1 here: the ends).
        var randomAtTop: Bool
        var expected: RetryPolicy.Decision
        var testDescription: String {
            "attempt \(failedAttempt), Retry-After \(retryAfter.map(String.init) ?? "none"), elapsed \(elapsed) → \(expected)"
        }
    }

    @Test(arguments: [
        // Full jitter: the draw is anywhere from 0 to the ceiling.
        Case(failedAttempt: 1, retryAfter: nil, elapsed: 0, randomAtTop: false, expected: .retry(afterMilliseconds: 0)),
        Case(failedAttempt: 1, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(afterMilliseconds: 500)),
        Case(failedAttempt: 3, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(afterMilliseconds: 2_000)),
        // Retry-After replaces the draw, and is not capped by the cap...
        Case(failedAttempt: 1, retryAfter: 1_000, elapsed: 0, randomAtTop: false, expected: .retry(afterMilliseconds: 1_000)),
        Case(failedAttempt: 1, retryAfter: 45_000, elapsed: 0, randomAtTop: false, expected: .retry(afterMilliseconds: 45_000)),
        Case(failedAttempt: 1, retryAfter: 0, elapsed: 0, randomAtTop: true, expected: .retry(afterMilliseconds: 0)),
        // ...only by the deadline.
        Case(
            failedAttempt: 1, retryAfter: 45_000, elapsed: 20_000, randomAtTop: false,
            expected: .giveUp("the server's Retry-After (45000 ms) would pass the 60 s deadline (--deadline)")),
        Case(
            failedAttempt: 4, retryAfter: nil, elapsed: 56_500, randomAtTop: true,
            expected: .giveUp("the next backoff (4000 ms) would pass the 60 s deadline (--deadline)")),
        Case(failedAttempt: 4, retryAfter: nil, elapsed: 56_500, randomAtTop: false, expected: .retry(afterMilliseconds: 0)),
        // Attempts: the fifth failure is the last.
        Case(failedAttempt: 4, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(afterMilliseconds: 4_000)),
        Case(failedAttempt: 5, retryAfter: 10, elapsed: 0, randomAtTop: false, expected: .giveUp("5 attempts made (--max-attempts)")),
    ])
    func decisions(_ c: Case) {
        let decision = Self.policy.decide(
            failedAttempt: c.failedAttempt, retryAfterMilliseconds: c.retryAfter, elapsedMilliseconds: c.elapsed,
            random: { c.randomAtTop ? $0 : 0 })
        #expect(decision == c.expected)
    }

    @Test func aRandomSourceOutOfRangeIsClampedToTheCeiling() {
        #expect(
            Self.policy.decide(failedAttempt: 2, retryAfterMilliseconds: nil, elapsedMilliseconds: 0, random: { _ in 1_000_000 })
                == .retry(afterMilliseconds: 1_000))
        #expect(
            Self.policy.decide(failedAttempt: 2, retryAfterMilliseconds: nil, elapsedMilliseconds: 0, random: { _ in -5 })
                == .retry(afterMilliseconds: 0))
    }

    @Test func theBaseIsInjectableForTests() {
        let quick = RetryPolicy(baseMilliseconds: 1, capMilliseconds: 4)
        #expect((1...5).map(quick.ceiling(afterAttempt:)) == [1, 2, 4, 4, 4])
        #expect(
            RetryPolicy(maximumAttempts: 1).decide(failedAttempt: 1, retryAfterMilliseconds: nil, elapsedMilliseconds: 0, random: { $0 })
                == .giveUp("1 attempt made (--max-attempts)"))
    }
}
