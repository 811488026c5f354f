import Synchronization

/// A way to stop a download from another thread at once, or at a set instant from its own.
///
/// Cancelling sets a flag and wakes the transfer's `curl_multi_poll` (``CurlDownloader/wake(_:)``), so the
/// download returns within a millisecond even while stalled in a TLS handshake (a progress callback
/// would only be consulted about once a second on an idle connection).
///
/// A token may also carry a deadline, ``expiry``, as a plain value: from that instant it counts as
/// cancelled, and the download's wait wakes for it. That is how `NotificationService.process` brings
/// time-will-expire down to the transfer without a timer thread or a scheduled closure: the caller
/// asks ``isExpired`` when the work returns, and delivers.
final class DownloadCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// Time-will-expire came in a recording's own time (a replay): past its expiry from now on.
        var expiredAsRecorded = false
        /// The multi handle of the transfer in progress, to wake. Guarded so that it is never woken
        /// after the downloader has let go of it.
        /// Held as its address because raw pointers are not `Sendable`.
        var multiAddress: Int?
    }

    private let state = Mutex(State())
    /// Pictures of the transfer in progress, for whoever stops waiting for it without stopping it.
    let snapshots = TransferSnapshots()
    /// When the token counts as cancelled by itself (time-will-expire), or nil for never.
    let expiry: ContinuousClock.Instant?

    init(expiry: ContinuousClock.Instant? = nil) {
        self.expiry = expiry
    }

    /// Stops the download, if one is running, and any that starts later with this token.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let address = state.multiAddress, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                CurlDownloader.wake(multi)
            }
        }
    }

    /// Cancelled, or past its expiry.
    var isCancelled: Bool { state.withLock { $0.cancelled } || isExpired }

    /// The transfer in progress as a cancelled one would report it, without cancelling it; nil when no
    /// transfer answered in time (none under way, or between two requests).
    func snapshot() -> TransferSnapshots.Snapshot? {
        snapshots.take {
            state.withLock { state in
                if let address = state.multiAddress, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                    CurlDownloader.wake(multi)
                }
            }
        }
    }

    /// Whether the expiry has come.
    var isExpired: Bool {
        if state.withLock({ $0.expiredAsRecorded }) { return true }
        guard let expiry else { return false }
        return ContinuousClock.now >= expiry
    }

    /// Time-will-expire came, in the recorded time a replay runs on rather than the clock's: from now
    /// on the token is past its expiry, and the notification delivers as it would have then.
    func expireAsRecorded() {
        state.withLock { $0.expiredAsRecorded = true }
    }

    /// How long a wait may last, in whole milliseconds: `limit`, or less to wake at the expiry.
    ///
    /// Rounded down, never up: `curl_multi_poll` counts whole milliseconds, and a wait rounded up
    /// would deliver time-will-expire up to a millisecond late (half a millisecond on average). The last
    /// fraction of a millisecond is slept out by ``sleepOutImminentExpiry()`` instead.
    func waitMilliseconds(upTo limit: Int32) -> Int32 {
        guard let expiry else { return limit }
        return Self.wait(left: expiry - ContinuousClock.now, upTo: limit)
    }

    /// The wait for `left` until the expiry: whole milliseconds, rounded down, at most `limit`.
    static func wait(left: Duration, upTo limit: Int32) -> Int32 {
        guard left > .zero else { return 0 }
        return Int32(clamping: min(Int64(limit), left.wholeMilliseconds))
    }

    /// When the expiry is under a millisecond away, too close for a wait in whole milliseconds,
    /// sleeps until it and returns true; otherwise returns false at once.
    func sleepOutImminentExpiry() -> Bool {
        guard let expiry else { return false }
        let left = expiry - ContinuousClock.now
        guard left > .zero, left < .milliseconds(1) else { return false }
        Pause.sleep(for: left)
        return true
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
