/// A reason with its human explanation, and the lower-level cause where there is one.
public struct Outcome: Sendable, Equatable, Error, CustomStringConvertible {
    /// The stable reason code.
    public var reason: Reason
    /// One human sentence: what happened, naming the value, status or libcurl error involved.
    public var detail: String

    /// An outcome of `reason`, explained by `detail`.
    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.code): \(detail)" }
}
