import Dispatch
import Synchronization

/// A recording transport's downloads, per URL, from the moment each starts until it is taken: a
/// download still under way when its payload's verdict came (time-will-expire while a shared download
/// goes on for the others) is waited for, not missed.
final class CapturedDownloads: Sendable {
    private struct State {
        /// Per URL, the downloads ended and not taken yet, oldest first.
        var ended: [String: [RecordedDownload]] = [:]
        /// Per URL, how many downloads have started and not ended.
        var running: [String: Int] = [:]
        /// Per URL, who waits for the next one to end.
        var waiters: [String: [DispatchSemaphore]] = [:]
    }

    private let state = Mutex(State())

    /// A download of `url` has started: ``take(_:waitingAtMost:)`` waits for it.
    func started(_ url: String) {
        state.withLock { $0.running[url, default: 0] += 1 }
    }

    /// A download of `url` has ended, with what it saw (nil when it ended before anything was kept).
    func ended(_ url: String, _ download: RecordedDownload?) {
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            let left = (state.running[url] ?? 1) - 1
            state.running[url] = left > 0 ? left : nil
            if let download { state.ended[url, default: []].append(download) }
            return state.waiters.removeValue(forKey: url) ?? []
        }
        for waiter in waiters { waiter.signal() }
    }

    /// The oldest download of `url` not taken yet, removed; when none has ended but one is still under
    /// way, the first to end, waited for at most `limit`. Nil when none ended in time.
    func take(_ url: String, waitingAtMost limit: Duration) -> RecordedDownload? {
        let (seconds, attoseconds) = limit.components
        // At most a day: a wait's bound, never a value that overflows.
        let nanoseconds = min(max(seconds, 0), 86_400) * 1_000_000_000 + max(attoseconds, 0) / 1_000_000_000
        let deadline = DispatchTime.now() + .nanoseconds(Int(nanoseconds))
        while true {
            let waiter = DispatchSemaphore(value: 0)
            let taken = state.withLock { state -> RecordedDownload?? in
                if var waiting = state.ended[url], !waiting.isEmpty {
                    let first = waiting.removeFirst()
                    state.ended[url] = waiting.isEmpty ? nil : waiting
                    return .some(first)
                }
                guard state.running[url] != nil else { return .some(nil) }
                state.waiters[url, default: []].append(waiter)
                return nil
            }
            if let taken { return taken }
            if waiter.wait(timeout: deadline) == .timedOut { return nil }
        }
    }

    /// Every download ended and never taken, removed.
    func removeAll() -> [RecordedDownload] {
        state.withLock { state in
            defer { state.ended = [:] }
            return state.ended.values.flatMap { $0 }
        }
    }
}
