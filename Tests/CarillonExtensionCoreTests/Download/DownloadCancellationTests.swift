import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The deadline a token carries: how the download's wait is cut so that it wakes at the expiry, not
/// after it.
@Suite struct DownloadCancellationTests {
    @Test(
        arguments: [
            // (time left in microseconds, limit in ms, expected wait in ms): rounded down, never up.
            (5_400_000, 1000, 1000), (999_999, 1000, 999), (1_700, 1000, 1), (1_000, 1000, 1),
            (999, 1000, 0), (1, 1000, 0), (0, 1000, 0), (-5_000, 1000, 0), (250_000, 100, 100),
        ] as [(Int, Int32, Int32)])
    func waitIsCutToTheExpiryRoundedDown(leftMicroseconds: Int, limit: Int32, expected: Int32) {
        #expect(DownloadCancellation.wait(left: .microseconds(leftMicroseconds), upTo: limit) == expected)
    }

    @Test func noExpiryWaitsTheWholeLimitAndNeverSleeps() {
        let token = DownloadCancellation()
        #expect(token.waitMilliseconds(upTo: 1000) == 1000)
        #expect(!token.sleepOutImminentExpiry())
        #expect(!token.isCancelled)
    }

    @Test func aPassedExpiryWaitsNothingAndCounts() {
        let token = DownloadCancellation(expiry: .now - .milliseconds(1))
        #expect(token.waitMilliseconds(upTo: 1000) == 0)
        #expect(!token.sleepOutImminentExpiry())
        #expect(token.isExpired && token.isCancelled)
    }

    @Test func theLastFractionOfAMillisecondIsSleptOut() {
        let token = DownloadCancellation(expiry: .now + .microseconds(600))
        #expect(token.waitMilliseconds(upTo: 1000) == 0)
        #expect(token.sleepOutImminentExpiry())
        #expect(token.isExpired)
    }

    @Test func anExpiryAMillisecondOrMoreAwayIsLeftToTheWait() {
        let token = DownloadCancellation(expiry: .now + .seconds(5))
        #expect(!token.sleepOutImminentExpiry())
        #expect(!token.isExpired)
    }
}
