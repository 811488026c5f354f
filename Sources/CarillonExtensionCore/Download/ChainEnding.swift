/// How the whole chain ended, as its ``TransferSource`` saw it.
struct ChainEnding: Sendable, Equatable {
    /// The libcurl code of the last request (or of the failure before the first).
    var curlCode: Int32
    /// libcurl's text for the code, plus its error buffer when that says more.
    var message: String
    /// The App Transport Security rule the last server's chain broke, if any.
    var tlsRule: String?
    /// The last server asked for a client certificate.
    var clientCertificateRequested = false
    /// Milliseconds from the start of the download to its end (rounded up).
    var elapsedMilliseconds = 0
    /// No request was made at all (a handle could not be set up): the report carries only the code.
    var beforeFirstRequest = false
    /// The source lacked what a decision needed (a recording's gap): the words of an `undetermined` outcome.
    var undetermined: String?
}
