/// What a finished download said, free of C types, so that deciding its outcome is a pure function
/// tested from tables.
struct TransferReport: Sendable, Equatable {
    /// The `CURLcode` of the last request (0 is success).
    var curlCode: Int32
    /// libcurl's text for the code, plus its error buffer when that says more.
    var curlMessage: String
    /// The last response's status (0 when no response arrived).
    var status: Int
    /// Body bytes of the final response handed to the sink.
    var bytesWritten: Int
    /// Every request made, in order.
    var hops: [TransferHop] = []
    /// Why the downloader itself refused the response or a redirect (status, framing, codings,
    /// announced length, a hop's URL), decided before the body was read.
    var refusal: Outcome?
    /// The body passed the cap while streaming.
    var stoppedAtCap: Bool = false
    /// When the body passed the cap: the bytes received by then (the kept ones and the piece that passed it).
    var bytesReceivedAtCap: Int = 0
    /// The sink asked to stop (it keeps its own reason, e.g. a write error).
    var stoppedBySink: Bool = false
    /// The download was cancelled (time-will-expire).
    var cancelled: Bool = false
    /// The App Transport Security rule the server's certificate chain broke, if it broke one.
    var tlsRule: String?
    /// The server of the last request asked for a client certificate in its handshake.
    var clientCertificateRequested: Bool = false
    /// The final response's content codings (lowercased, in the order applied; identity left out).
    var contentCodings: [String] = []
    /// The request's header fields, redacted for the trace.
    var requestHeaders: [HTTPField] = []
    /// The ATS settings in force, to name the rule a failed handshake broke.
    var transportSecurity: TransportSecurity = .appTransportSecurity
    /// The size cap in force, for messages.
    var cap: Int = DownloadLimits.standard.maximumBytes
    /// The time budget in force, for messages.
    var budget: Duration = DownloadLimits.standard.budget
    /// Milliseconds from the start of the download to its end (rounded up), for messages.
    var elapsedMilliseconds: Int = 0
    /// The source lacked what a decision needed (a recording's gap): the detail of an `undetermined` outcome.
    var undetermined: String?

    /// "'gzip'", "'gzip, br'": the codings as messages name them.
    var codingsText: String { Quoting.single(contentCodings.joined(separator: ", ")) }

    /// Redirects followed.
    var redirects: Int { max(hops.count - 1, 0) }
}

extension TransferReport {
    /// The SPEC §3 outcome of a download that did not produce a usable body, or nil when the body is
    /// complete and may be verified. The libcurl code and message ride along in the detail.
    var failure: Outcome? {
        let curl = "libcurl error \(curlCode): \(curlMessage)"
        // Nothing else can be concluded from a response the recording does not hold.
        if let undetermined { return Outcome(.undetermined, undetermined) }
        if cancelled {
            return Outcome(.expired, "time-will-expire arrived before the download finished, \(trace(image: nil).endDescription)")
        }
        if let refusal { return refusal }
        if stoppedAtCap {
            // The count that passed the cap, never the bytes kept below it: the trace shows the same two.
            let (decoded, wire) = bytesAtCap
            let counts = "\(decoded) decoded bytes from \(wire) wire bytes, \(decoded - cap) over the cap"
            if !contentCodings.isEmpty {
                return Outcome(
                    .tooLarge,
                    "decoded body passed the \(DownloadLimits.describe(bytes: cap)) cap while decoding \(codingsText): \(counts); decoding stopped there"
                )
            }
            return Outcome(
                .tooLarge, "body passed the \(DownloadLimits.describe(bytes: cap)) cap while streaming: \(counts); stopped there")
        }
        if stoppedBySink {
            return Outcome(.storage, "the downloaded body could not be stored")
        }
        if let tlsRule, curlCode != CurlCode.ok {
            return Outcome(.tls, "App Transport Security refused the server's certificate: \(tlsRule) (\(curl))")
        }
        if clientCertificateRequested, curlCode != CurlCode.ok, status == 0 {
            return Outcome(.tls, "the server asked for a client certificate, which an extension never sends (\(curl))")
        }
        switch curlCode {
        case CurlCode.ok:
            if status != 200 { return Outcome(.httpStatus, RedirectRule.statusDetail(status)) }
            if bytesWritten == 0 { return Outcome(.emptyBody, "status 200 with an empty body") }
            return nil
        case CurlCode.unsupportedProtocol, CurlCode.weirdServerReply:
            // Every URL libcurl is given has passed ImageURL (https only), redirects included: this is
            // the reply, not the scheme.
            return Outcome(
                .network, "malformed response: no valid HTTP/1.x status line (an HTTP/0.9 reply or a malformed status line) (\(curl))")
        case CurlCode.receiveError where curlMessage.lowercased().contains("chunk"):
            return Outcome(.network, "malformed response: broken chunked framing (\(curl))")
        case CurlCode.urlMalformed:
            return Outcome(.invalidURL, curl)
        case CurlCode.operationTimedOut:
            // libcurl's own message counts only the last request; this counts the whole chain.
            let chain =
                redirects == 0 ? "" : " on request \(hops.count) of the chain, after \(redirects) redirect\(redirects == 1 ? "" : "s")"
            return Outcome(
                .timeout,
                "the download's \(budget.wholeMilliseconds) ms time budget ran out\(chain), \(elapsedMilliseconds) ms in all, \(trace(image: nil).endDescription) (libcurl error \(curlCode))"
            )
        case CurlCode.fileSizeExceeded:
            return Outcome(.tooLarge, "announced Content-Length is over the cap (\(curl))")
        case CurlCode.badContentEncoding:
            let named = contentCodings.isEmpty ? "its Content-Encoding" : "its Content-Encoding \(codingsText)"
            return Outcome(.network, "the body does not decode as \(named) says: URLSession fails such a download too (\(curl))")
        case CurlCode.httpReturnedError:
            return Outcome(.httpStatus, "final response status \(status) (\(curl))")
        case CurlCode.abortedByCallback:
            return Outcome(.expired, "download cancelled (\(curl))")
        case let code where CurlCode.tlsCodes.contains(code):
            return transportSecurity.handshakeOutcome(curl)
        case CurlCode.writeError:
            return Outcome(.storage, "could not write the downloaded body (\(curl))")
        default:
            // DNS, refused, reset, truncated body, nothing received, HTTP/2 stream errors...
            return Outcome(.network, curl)
        }
    }
}

extension DownloadLimits {
    /// "10 MiB" / "10485761 bytes": how a byte count reads in messages.
    static func describe(bytes: Int) -> String {
        if bytes > 0 && bytes % 1_048_576 == 0 { return "\(bytes / 1_048_576) MiB" }
        return "\(bytes) bytes"
    }
}
