/// A mistake in how the tool was called: exit status 64 (`EX_USAGE`).
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}
