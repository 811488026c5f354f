/// A reason with its human explanation. The explanation names the libcurl error, the status or the
/// C library's error involved; where a caller may want to word the failure in its own terms (a broken
/// App Transport Security rule), the cause rides along as a value too.
public struct Outcome: Sendable, Equatable, Error, CustomStringConvertible {
    /// The cause of an outcome as a value, for a caller that words it itself.
    public enum Cause: Sendable, Equatable {
        /// A TLS handshake that broke an App Transport Security rule, with libcurl's message.
        case transportSecurity(TransportSecurity.HandshakeRule, libcurlMessage: String)
    }

    /// The stable reason code.
    public var reason: Reason
    /// One human sentence: what happened, naming the value, status or libcurl error involved.
    public var detail: String
    /// The cause as a value, where the detail's words are the library's and a caller may want its own.
    public var cause: Cause?

    /// An outcome of `reason`, explained by `detail`, with its `cause` as a value where there is one.
    public init(_ reason: Reason, _ detail: String, cause: Cause? = nil) {
        self.reason = reason
        self.detail = detail
        self.cause = cause
    }

    public var description: String { "\(reason.code): \(detail)" }
}
