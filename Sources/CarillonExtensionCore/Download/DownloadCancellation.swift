import Synchronization

/// A way to stop a download from another thread at once, or at a set time from its own.
///
/// Cancelling sets a flag and wakes the transfer's `curl_multi_poll` (``CurlDownloader/wake(_:)``), so the
/// download returns within a millisecond even while stalled in a TLS handshake (a progress callback
/// would only be consulted about once a second on an idle connection).
///
/// An action scheduled with ``schedule(at:_:)`` runs once its time has come, on the thread doing the
/// work: the download's wait wakes for it, and ``fireIfDue()`` runs it between steps. That is how
/// `NotificationService.process` delivers time-will-expire without a timer thread.
public final class DownloadCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// The multi handle of the transfer in progress, to wake. Guarded so that it is never woken
        /// after the downloader has let go of it.
        /// Held as its address because raw pointers are not `Sendable`.
        var multiAddress: Int?
        var deadline: ContinuousClock.Instant?
        var action: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    public init() {}

    /// Stops the download, if one is running, and any that starts later with this token.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let address = state.multiAddress, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                CurlDownloader.wake(multi)
            }
        }
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `action` once, at `deadline` or at the first check after it (the action usually cancels).
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.deadline = deadline
            state.action = action
        }
    }

    /// Runs the scheduled action if its time has come (outside the lock: it may cancel).
    func fireIfDue() {
        let due = state.withLock { state -> (@Sendable () -> Void)? in
            guard let deadline = state.deadline, ContinuousClock.now >= deadline else { return nil }
            defer {
                state.deadline = nil
                state.action = nil
            }
            return state.action
        }
        due?()
    }

    /// How long a wait may last, in milliseconds: `limit`, or less to wake for the scheduled action.
    func waitMilliseconds(upTo limit: Int32) -> Int32 {
        guard let deadline = state.withLock({ $0.deadline }) else { return limit }
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        // Rounded up, so that the wait never ends just before the deadline.
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: min(Int64(limit), milliseconds))
    }

    /// Registers the multi handle to wake; returns false when already cancelled.
    func attach(_ multi: UnsafeMutableRawPointer) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.multiAddress = Int(bitPattern: multi)
            return true
        }
    }

    func detach() {
        state.withLock { $0.multiAddress = nil }
    }
}
