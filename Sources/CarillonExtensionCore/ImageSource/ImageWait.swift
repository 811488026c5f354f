import Dispatch

/// One notification's wait for a shared image: until the verdict comes, its own expiry passes, or
/// time-will-expire wakes it (``wake()``), whichever is first.
final class ImageWait: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    let cancellation: DownloadCancellation

    init(cancellation: DownloadCancellation) {
        self.cancellation = cancellation
    }

    /// Whether this wait's expiry is at least `budget` away (a transfer started now ends by then): false
    /// without a set expiry, since time-will-expire may then come at any moment.
    func outlasts(_ budget: Duration) -> Bool {
        guard let expiry = cancellation.expiry, !cancellation.isCancelled else { return false }
        // Subtracted from the expiry (at most a year away), never added to a budget that may be huge.
        return expiry - ContinuousClock.now - .seconds(1) >= budget
    }

    /// Wakes the wait (time-will-expire: ``DownloadCancellation/cancel()`` has been called).
    func wake() { semaphore.signal() }

    /// The flight's verdict, or nil when the notification's time ran out first.
    func verdict(of flight: SharedImageSource.Flight) -> SharedImageSource.Verdict? {
        if let verdict = flight.verdict(orRegister: semaphore) { return verdict }
        while true {
            if cancellation.isCancelled { return flight.verdict }
            let deadline: DispatchTime
            if let expiry = cancellation.expiry {
                let left = expiry - ContinuousClock.now
                let (seconds, attoseconds) = left.components
                let nanoseconds = max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
                deadline = .now() + .nanoseconds(Int(clamping: nanoseconds))
            } else {
                deadline = .distantFuture
            }
            _ = semaphore.wait(timeout: deadline)
            if let verdict = flight.verdict { return verdict }
        }
    }
}
