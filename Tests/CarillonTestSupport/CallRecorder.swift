@_spi(Tooling) import CarillonExtensionCore
import Foundation
import Synchronization

/// Records every call of a callback — a content handler, a completion — with the instant it came, so
/// that a test can assert "exactly once" and measure latency without blocking a Swift Concurrency thread.
public final class CallRecorder<Value: Sendable>: Sendable {
    private let calls = Mutex<[(value: Value, at: ContinuousClock.Instant)]>([])

    public init() {}

    /// The callback to hand to the code under test.
    public func record(_ value: Value) {
        let now = ContinuousClock.now
        calls.withLock { $0.append((value, now)) }
    }

    public var count: Int { calls.withLock { $0.count } }
    public var values: [Value] { calls.withLock { $0.map(\.value) } }
    /// When the first call came, if it has.
    public var firstInstant: ContinuousClock.Instant? { calls.withLock { $0.first?.at } }

    /// Waits (without blocking a thread) for the first call; nil when none came within `timeout`.
    public func first(within timeout: Duration) async -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let first = calls.withLock({ $0.first?.value }) { return first }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
