/// The one way the library — and the tool, and the benchmark — waits on its own thread.
@_spi(Tooling) public enum Pause {
    /// Blocks the calling thread for `duration` with `nanosleep`, resuming after a signal so that the
    /// whole duration passes. A duration of zero or less returns at once.
    public static func sleep(for duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var request = CTimespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = CTimespec()
        while system_nanosleep(&request, &remaining) == -1 && system_errno == _EINTR { request = remaining }
    }
}
