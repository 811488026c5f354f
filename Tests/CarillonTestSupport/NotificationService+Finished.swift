@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension NotificationService {
    /// `waitUntilFinished()` on a thread of its own, so that the blocking wait holds neither one of
    /// Swift Concurrency's few threads nor one of Dispatch's (which the downloads themselves run on);
    /// returns how long the wait took, measured on that thread.
    @discardableResult
    public func finished() async -> Duration {
        (try? await onOwnThread {
            let start = ContinuousClock.now
            self.waitUntilFinished()
            return ContinuousClock.now - start
        }) ?? .zero
    }
}
