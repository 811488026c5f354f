internal import CCurl

/// The options every libcurl handle of the project starts with, whatever it is for (an image download,
/// an events upload): HTTPS only, the certificate and host name always verified, App Transport
/// Security's protocol floor, cipher suites and certificate rules (``TransportSecurity``,
/// ``CertificateRules``), an extra CA file added to the system's trust, no signals. One place, so that
/// the uploader can never be set up with weaker rules than the downloads.
enum CurlSecureSetup {
    /// `curl_easy_setopt` for each shared option; the caller checks every result.
    static func options(
        _ easy: UnsafeMutableRawPointer, transportSecurity: TransportSecurity, extraCAFile: String?,
        errorBuffer: UnsafeMutablePointer<CChar>, handshake: HandshakeState
    ) -> [(CURLoption, CURLcode)] {
        var options: [(CURLoption, CURLcode)] = [
            (CURLOPT_PROTOCOLS_STR, carillon_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "https")),
            // Redirects are never left to libcurl (the downloader follows them by RedirectRule).
            (CURLOPT_FOLLOWLOCATION, carillon_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)),
            (CURLOPT_HTTP09_ALLOWED, carillon_easy_setopt_long(easy, CURLOPT_HTTP09_ALLOWED, 0)),
            (CURLOPT_SSL_VERIFYPEER, carillon_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)),
            (CURLOPT_SSL_VERIFYHOST, carillon_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)),
            (CURLOPT_NOSIGNAL, carillon_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)),
            (CURLOPT_USERAGENT, carillon_easy_setopt_string(easy, CURLOPT_USERAGENT, "carillon-nse/\(CarillonVersion.current)")),
            (CURLOPT_ERRORBUFFER, carillon_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)),
        ]
        options += transportSecurityOptions(easy, transportSecurity, handshake)
        if let extraCAFile {
            // CAINFO replaces only the bundle file; the system's hashed CA directory (CAPATH) stays, so
            // this adds trust rather than replacing it.
            // Its exact bytes (see FileName): a path that is not UTF-8 still names its file.
            options.append((CURLOPT_CAINFO, FileName.withCString(extraCAFile) { carillon_easy_setopt_string(easy, CURLOPT_CAINFO, $0) }))
        }
        return options
    }

    /// The first option libcurl refused, as a code and a sentence; nil when all were taken.
    static func firstFailure(_ options: [(CURLoption, CURLcode)]) -> (code: Int32, message: String)? {
        for (option, result) in options where result != CURLE_OK {
            let message = String(cString: curl_easy_strerror(result))
            return (Int32(result.rawValue), "setting option \(option.rawValue) failed: \(message)")
        }
        return nil
    }

    /// `curl_global_init`, once per process, before any handle (libcurl asks for it even where it is
    /// thread-safe). A static `let` is initialised once, on first use, by the Swift runtime.
    static let globalInitialization: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()
}
