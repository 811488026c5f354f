#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one loop that retries a call a signal interrupted. Every file that calls the C library imports it
/// itself, as this one does; nothing re-exports it.
enum SystemCall {
    /// `errno`, for code where a property of that name hides the C library's.
    static var lastError: Int32 { errno }

    /// Calls `body` until it does not fail with `EINTR`, and returns its result. A call's failure is a
    /// result of -1 with `errno` set, as the C library reports it.
    @inline(__always)
    static func retryingInterrupts<Result: FixedWidthInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }
}
