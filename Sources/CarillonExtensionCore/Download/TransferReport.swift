/// What a finished libcurl transfer said, free of C types, so that deciding its outcome is a pure
/// function tested from tables.
struct TransferReport: Sendable, Equatable {
    /// The `CURLcode` of the transfer (0 is success).
    var curlCode: Int32
    /// libcurl's text for the code, plus its error buffer when that says more.
    var curlMessage: String
    /// The last response's status (0 when no response arrived).
    var status: Int
    /// The final response's `Content-Encoding`, if it had one.
    var contentEncoding: String?
    /// Body bytes written to the file.
    var bytesWritten: Int
    /// The write callback stopped the transfer because the body passed the cap.
    var stoppedAtCap: Bool = false
    /// The write callback stopped the transfer because the status was not 200.
    var stoppedForStatus: Bool = false
    /// The write callback stopped the transfer because of the content encoding.
    var stoppedForEncoding: Bool = false
    /// The write callback could not write the file: the `errno`.
    var writeErrno: Int32?
    /// The download was cancelled (time-will-expire).
    var cancelled: Bool = false
    /// The size cap in force, for messages.
    var cap: Int = DownloadLimits.standard.maximumBytes
    /// What ``ImageStreamVerifier`` decided about the bytes written (only meaningful when ``failure`` is nil:
    /// the body is then complete).
    var image: Result<VerifiedImage, Outcome> = ImageStreamVerifier().finish()

    /// Whether a `Content-Encoding` value means the body is not the plain image bytes.
    static func isEncoded(_ value: String?) -> Bool {
        guard let value else { return false }
        let trimmed = value.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
        return trimmed.contains { $0.lowercased() != "identity" }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var slice = self
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return slice
    }
}

/// The libcurl codes that classification names (values from curl.h, stable across versions); every
/// other code — DNS, refused, reset, partial file, nothing received — is `network`.
enum CurlCode {
    static let ok: Int32 = 0
    static let unsupportedProtocol: Int32 = 1
    static let urlMalformed: Int32 = 3
    static let httpReturnedError: Int32 = 22
    static let writeError: Int32 = 23
    static let operationTimedOut: Int32 = 28
    static let sslConnectError: Int32 = 35
    static let abortedByCallback: Int32 = 42
    static let tooManyRedirects: Int32 = 47
    static let sslEngineNotFound: Int32 = 53
    static let sslEngineSetFailed: Int32 = 54
    static let sslCertProblem: Int32 = 58
    static let sslCipher: Int32 = 59
    static let peerFailedVerification: Int32 = 60
    static let badContentEncoding: Int32 = 61
    static let fileSizeExceeded: Int32 = 63
    static let useSSLFailed: Int32 = 64
    static let sslEngineInitFailed: Int32 = 66
    static let sslCACertBadFile: Int32 = 77
    static let sslShutdownFailed: Int32 = 80
    static let sslCRLBadFile: Int32 = 82
    static let sslIssuerError: Int32 = 83
    static let sslPinnedPublicKeyMismatch: Int32 = 90
    static let sslInvalidCertStatus: Int32 = 91
    static let sslClientCert: Int32 = 98

    static let tlsCodes: Set<Int32> = [
        sslConnectError, sslEngineNotFound, sslEngineSetFailed, sslCertProblem, sslCipher, peerFailedVerification,
        useSSLFailed, sslEngineInitFailed, sslCACertBadFile, sslShutdownFailed, sslCRLBadFile, sslIssuerError,
        sslPinnedPublicKeyMismatch, sslInvalidCertStatus, sslClientCert,
    ]
}

extension TransferReport {
    /// The SPEC §3 outcome of a transfer that did not produce a usable body, or nil when the body is
    /// complete and may be verified. The libcurl code and message ride along in the detail.
    var failure: Outcome? {
        let curl = "libcurl error \(curlCode): \(curlMessage)"
        if cancelled {
            return Outcome(.expired, "time-will-expire arrived before the download finished (\(bytesWritten) bytes received)")
        }
        if stoppedAtCap {
            return Outcome(.tooLarge, "body passed the \(DownloadLimits.describe(bytes: cap)) cap while streaming; stopped after \(bytesWritten) bytes")
        }
        if stoppedForStatus {
            return Outcome(.httpStatus, "final response status \(status), expected 200")
        }
        if stoppedForEncoding || (curlCode == CurlCode.ok && TransferReport.isEncoded(contentEncoding)) {
            return Outcome(.contentEncoding, "response has Content-Encoding '\(contentEncoding ?? "")'; only identity is accepted")
        }
        if let writeErrno {
            let reason = FileSystemError("write", "attachment", errno: writeErrno).reason
            return Outcome(.storage, "could not write the downloaded body: \(reason)")
        }
        switch curlCode {
        case CurlCode.ok:
            if status != 200 { return Outcome(.httpStatus, "final response status \(status), expected 200") }
            if bytesWritten == 0 { return Outcome(.emptyBody, "status 200 with an empty body") }
            return nil
        case CurlCode.unsupportedProtocol:
            return Outcome(.insecureURL, "a redirect left https (\(curl))")
        case CurlCode.urlMalformed:
            return Outcome(.invalidURL, curl)
        case CurlCode.tooManyRedirects:
            return Outcome(.tooManyRedirects, "more than the allowed redirects (\(curl))")
        case CurlCode.operationTimedOut:
            return Outcome(.timeout, "the download's time budget ran out after \(bytesWritten) body bytes (\(curl))")
        case CurlCode.fileSizeExceeded:
            return Outcome(.tooLarge, "announced Content-Length is over the cap (\(curl))")
        case CurlCode.badContentEncoding:
            return Outcome(.contentEncoding, curl)
        case CurlCode.httpReturnedError:
            return Outcome(.httpStatus, "final response status \(status) (\(curl))")
        case CurlCode.abortedByCallback:
            return Outcome(.expired, "download cancelled (\(curl))")
        case let code where CurlCode.tlsCodes.contains(code):
            return Outcome(.tls, curl)
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
