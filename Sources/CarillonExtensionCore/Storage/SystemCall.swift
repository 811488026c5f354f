#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#endif

/// The one place the C library is imported for the library (re-exported, so the other files need no
/// import block of their own), and the one loop that retries a call a signal interrupted.
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
