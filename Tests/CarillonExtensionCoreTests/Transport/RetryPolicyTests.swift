@_spi(Tooling) import CarillonExtensionCore
import Testing

@Suite struct RetryPolicyTests {
    static let policy = RetryPolicy(base: .milliseconds(500), cap: .seconds(30), maximumAttempts: 5, deadline: .seconds(60))

    @Test(arguments: [
        (1, 500), (2, 1_000), (3, 2_000), (4, 4_000), (5, 8_000), (6, 16_000), (7, 30_000), (8, 30_000), (64, 30_000), (Int.max, 30_000),
        (0, 500),
    ])
    func theCeilingDoublesUpToTheCap(attempt: Int, ceiling: Int) {
        #expect(Self.policy.ceiling(afterAttempt: attempt) == .milliseconds(ceiling))
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
        Case(failedAttempt: 1, retryAfter: nil, elapsed: 0, randomAtTop: false, expected: .retry(after: .milliseconds(0))),
        Case(failedAttempt: 1, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(after: .milliseconds(500))),
        Case(failedAttempt: 3, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(after: .milliseconds(2_000))),
        // Retry-After replaces the draw, and is not capped by the cap...
        Case(failedAttempt: 1, retryAfter: 1_000, elapsed: 0, randomAtTop: false, expected: .retry(after: .milliseconds(1_000))),
        Case(failedAttempt: 1, retryAfter: 45_000, elapsed: 0, randomAtTop: false, expected: .retry(after: .milliseconds(45_000))),
        Case(failedAttempt: 1, retryAfter: 0, elapsed: 0, randomAtTop: true, expected: .retry(after: .milliseconds(0))),
        // ...only by the deadline.
        Case(
            failedAttempt: 1, retryAfter: 45_000, elapsed: 20_000, randomAtTop: false,
            expected: .giveUp(.waitPassesDeadline(wait: .milliseconds(45_000), serverAsked: true, deadline: .seconds(60)))),
        Case(
            failedAttempt: 4, retryAfter: nil, elapsed: 56_500, randomAtTop: true,
            expected: .giveUp(.waitPassesDeadline(wait: .milliseconds(4_000), serverAsked: false, deadline: .seconds(60)))),
        Case(failedAttempt: 4, retryAfter: nil, elapsed: 56_500, randomAtTop: false, expected: .retry(after: .milliseconds(0))),
        // Attempts: the fifth failure is the last.
        Case(failedAttempt: 4, retryAfter: nil, elapsed: 0, randomAtTop: true, expected: .retry(after: .milliseconds(4_000))),
        Case(failedAttempt: 5, retryAfter: 10, elapsed: 0, randomAtTop: false, expected: .giveUp(.attemptsMade(5))),
    ])
    func decisions(_ c: Case) {
        let decision = Self.policy.decide(
            failedAttempt: c.failedAttempt, retryAfter: c.retryAfter.map { .milliseconds($0) }, elapsed: .milliseconds(c.elapsed),
            random: { c.randomAtTop ? $0 : 0 })
        #expect(decision == c.expected)
    }

    @Test func aRandomSourceOutOfRangeIsClampedToTheCeiling() {
        #expect(
            Self.policy.decide(failedAttempt: 2, retryAfter: nil, elapsed: .zero, random: { _ in 1_000_000 })
                == .retry(after: .milliseconds(1_000)))
        #expect(
            Self.policy.decide(failedAttempt: 2, retryAfter: nil, elapsed: .zero, random: { _ in -5 })
                == .retry(after: .milliseconds(0)))
    }

    @Test func theBaseIsInjectableForTests() {
        let quick = RetryPolicy(base: .milliseconds(1), cap: .milliseconds(4))
        #expect((1...5).map(quick.ceiling(afterAttempt:)) == [1, 2, 4, 4, 4].map { .milliseconds($0) })
        #expect(
            RetryPolicy(maximumAttempts: 1).decide(failedAttempt: 1, retryAfter: nil, elapsed: .zero, random: { $0 })
                == .giveUp(.attemptsMade(1)))
    }

    @Test func valuesBelowTheirMinimumAreRaisedToIt() {
        let raised = RetryPolicy(base: .milliseconds(-5), cap: .seconds(-1), maximumAttempts: 0, deadline: .zero)
        #expect(raised == RetryPolicy(base: .zero, cap: .zero, maximumAttempts: 1, deadline: .milliseconds(1)))
    }

    /// The jitter draws whole milliseconds: a ceiling with a fraction is drawn under its whole part.
    @Test func theDrawIsInWholeMilliseconds() {
        let fine = RetryPolicy(base: .microseconds(2_500), cap: .seconds(1))
        #expect(fine.ceiling(afterAttempt: 1) == .microseconds(2_500))
        #expect(fine.decide(failedAttempt: 1, retryAfter: nil, elapsed: .zero, random: { $0 }) == .retry(after: .milliseconds(2)))
    }

    @Test(arguments: [
        (Duration.seconds(60), "60"), (.milliseconds(500), "0.5"), (.milliseconds(1_250), "1.25"), (.microseconds(1_500), "0.001"),
    ])
    func secondsForASentence(duration: Duration, text: String) {
        #expect(RetryPolicy.seconds(duration) == text)
    }
}
