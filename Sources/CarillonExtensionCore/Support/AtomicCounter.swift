import Synchronization

/// A counter safe to bump from any thread.
final class AtomicCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Adds one and returns the new value.
    func add() -> Int { value.add(1, ordering: .relaxed).newValue }
}
