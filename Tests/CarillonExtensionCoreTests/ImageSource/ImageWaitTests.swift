import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// When the payload that starts a shared download may fetch it on its own thread: only when its
/// time-will-expire cannot come before the budget ends the transfer.
@Suite struct ImageWaitTests {
    @Test(
        arguments: [
            (Duration?.none, Duration.seconds(20), false),  // time-will-expire may come at any moment
            (.seconds(30), .seconds(20), true),  // iOS's 30 s against the 20 s budget
            (.seconds(20), .seconds(20), false),  // no margin left
            (.milliseconds(500), .seconds(5), false),
            (.seconds(30), .seconds(Int64.max), false),  // a huge budget does not trap
            (.seconds(365 * 86_400), .seconds(20), true),
        ])
    func theStarterFetchesItselfOnlyWhenItsExpiryOutlastsTheBudget(expiresIn: Duration?, budget: Duration, inline: Bool) {
        let wait = ImageWait(cancellation: DownloadCancellation(expiry: expiresIn.map { ContinuousClock.now + $0 }))
        #expect(wait.outlasts(budget) == inline)
    }

    @Test func aCancelledWaitNeverOutlasts() {
        let cancellation = DownloadCancellation(expiry: .now + .seconds(60))
        cancellation.cancel()
        #expect(!ImageWait(cancellation: cancellation).outlasts(.seconds(1)))
    }
}
