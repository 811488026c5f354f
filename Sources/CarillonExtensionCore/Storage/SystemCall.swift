/// The one loop that retries a call a signal interrupted (the C library's names it calls are in
/// LibC.swift, this module's one room for it).
enum SystemCall {
    /// `errno`, for code where a property of that name hides the room's `system_errno`.
    static var lastError: Int32 { system_errno }

    /// Calls `body` until it does not fail with `EINTR`, and returns its result. A call's failure is a
    /// result of -1 with `errno` set, as the C library reports it.
    @inline(__always)
    static func retryingInterrupts<Result: FixedWidthInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result != -1 || system_errno != _EINTR { return result }
        }
    }
}
