import Dispatch
import Synchronization

/// Per image URL, the recording of the payload whose download the others shared: a shared download's
/// recording names that file (`shared_with`), so it waits while the file is being written, and is not
/// written at all when the first one was not.
final class FirstRecordings: Sendable {
    private enum First {
        case writing
        case written(String)
        case failed
    }

    private struct State {
        var firsts: [String: First] = [:]
        var waiters: [String: [DispatchSemaphore]] = [:]
    }

    private let state = Mutex(State())

    /// The first payload's recording of `url` is being written.
    func writing(_ url: String) {
        state.withLock { $0.firsts[url] = .writing }
    }

    /// The first payload's recording of `url` is written as `name`, or could not be (nil).
    func finished(_ url: String, name: String?) {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            state.firsts[url] = name.map(First.written) ?? .failed
            return state.waiters.removeValue(forKey: url) ?? []
        }
        for waiter in waiters { waiter.signal() }
    }

    /// The name of the first payload's recording of `url`, waiting at most `limit` while it is being
    /// written or not yet begun (its payload's line may come just after a sharer's); nil when it was not
    /// written.
    func name(of url: String, waitingAtMost limit: Duration) -> String? {
        let deadline = DispatchTime.now() + .milliseconds(Int(min(max(limit.components.seconds, 0), 86_400) * 1000))
        while true {
            let waiter = DispatchSemaphore(value: 0)
            let known = state.withLock { state -> First? in
                switch state.firsts[url] {
                case .written, .failed: return state.firsts[url]
                case .writing, nil:
                    state.waiters[url, default: []].append(waiter)
                    return nil
                }
            }
            switch known {
            case .written(let name): return name
            case .failed: return nil
            case .writing, nil: if waiter.wait(timeout: deadline) == .timedOut { return nil }
            }
        }
    }
}
