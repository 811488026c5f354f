import Synchronization

/// A flag one thread sets and others read.
public final class AtomicFlag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    public func set() { value.store(true, ordering: .sequentiallyConsistent) }

    public var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}
