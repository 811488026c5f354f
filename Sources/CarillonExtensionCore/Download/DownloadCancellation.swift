import CCurl
import Synchronization

/// A way to stop a download from another thread at once.
///
/// Cancelling sets a flag and wakes the transfer's `curl_multi_poll` with `curl_multi_wakeup`, so the
/// download returns within a millisecond even while stalled in a TLS handshake (a progress callback
/// would only be consulted about once a second on an idle connection).
public final class DownloadCancellation: Sendable {
    private struct State {
        var cancelled = false
        /// The multi handle of the transfer in progress, to wake. Guarded so that it is never woken
        /// after the downloader has let go of it.
        /// Held as its address because raw pointers are not `Sendable`.
        var multiAddress: Int?
    }

    private let state = Mutex(State())

    public init() {}

    /// Stops the download, if one is running, and any that starts later with this token.
    public func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let address = state.multiAddress, let multi = UnsafeMutableRawPointer(bitPattern: address) {
                curl_multi_wakeup(multi)
            }
        }
    }

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

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
