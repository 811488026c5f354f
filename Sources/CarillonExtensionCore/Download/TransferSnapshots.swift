import Dispatch
import Synchronization

/// The transfer in progress as a download cancelled at this instant would report it — its outcome
/// (phase, host, bytes) and its trace — for a notification that stops waiting for a shared download at
/// its own time-will-expire while the download goes on for the others.
///
/// The transfer's loop answers between two turns (``isWanted`` is one atomic load a turn), woken by the
/// asker; a transfer that is not under way does not answer, and the asker goes without.
final class TransferSnapshots: Sendable {
    /// What the transfer would report if it were cancelled now.
    struct Snapshot: Sendable {
        var outcome: Outcome
        var trace: DownloadTrace
    }

    private let state = Mutex<(askers: [DispatchSemaphore], latest: Snapshot?)>(([], nil))
    private let wanted = Atomic<Bool>(false)

    /// Whether someone is waiting for a snapshot.
    var isWanted: Bool { wanted.load(ordering: .acquiring) }

    /// Asks for a snapshot, wakes the transfer with `wake`, and waits for it up to `timeout`.
    func take(timeout: Duration = .milliseconds(5), waking wake: () -> Void) -> Snapshot? {
        let semaphore = DispatchSemaphore(value: 0)
        state.withLock { $0.askers.append(semaphore) }
        wanted.store(true, ordering: .releasing)
        wake()
        let nanoseconds = Int(clamping: timeout.wholeMilliseconds * 1_000_000)
        guard semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return state.withLock { $0.latest }
    }

    /// The transfer's answer, to everyone who asked.
    func publish(_ snapshot: Snapshot) {
        wanted.store(false, ordering: .releasing)
        let askers = state.withLock { state in
            state.latest = snapshot
            defer { state.askers = [] }
            return state.askers
        }
        for asker in askers { asker.signal() }
    }
}
