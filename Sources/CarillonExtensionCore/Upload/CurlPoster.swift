internal import CCurl

/// Sends HTTPS POST requests one at a time over one libcurl easy handle kept for the poster's life, so
/// that consecutive requests to one host reuse one connection and its TLS session (libcurl's easy
/// handle keeps its connection cache between `curl_easy_perform` calls).
///
/// Set up by ``CurlSecureSetup`` with exactly the downloads' rules (HTTPS only, verification on, App
/// Transport Security, an extra CA file). No redirect is followed. libcurl's verbose trace is never
/// switched on, so request headers — the `Authorization` header above all — are never written anywhere.
final class CurlPoster {
    /// One request's answer, or why none came.
    struct Response: Sendable {
        /// The HTTP status; nil when no whole response arrived (a network error, a timeout, a reset).
        var status: Int?
        /// The response body's first ``CurlPoster/maximumBodyBytes`` bytes.
        var body: [UInt8] = []
        /// The `Retry-After` header's value, if any.
        var retryAfter: String?
        /// libcurl's words when the request failed (never holding a request header).
        var failure: String?
        /// Whether this request opened a new connection (false: one was reused).
        var newConnection = false
    }

    /// More than any `{"received": N}` or error page worth quoting.
    static let maximumBodyBytes = 64 * 1024

    private let easy: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE) + 1
    /// Kept for the handle's life: OpenSSL contexts of cached connections hold its address.
    private let handshake = HandshakeState()
    private let setupFailure: String?

    /// Creates the handle with the shared secure options.
    ///
    /// - Returns: nil when libcurl cannot create a handle (`curl_easy_init`).
    init?(transportSecurity: TransportSecurity, extraCAFile: String?) {
        _ = CurlSecureSetup.globalInitialization
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        errorBuffer = .allocate(capacity: CurlPoster.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: CurlPoster.errorBufferSize)
        var options = CurlSecureSetup.options(
            easy, transportSecurity: transportSecurity, extraCAFile: extraCAFile, errorBuffer: errorBuffer, handshake: handshake)
        options += [
            (CURLOPT_POST, carillon_easy_setopt_long(easy, CURLOPT_POST, 1)),
            (
                CURLOPT_HEADERFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<CurlPoster.Collector>.fromOpaque(userData!).takeUnretainedValue()
                    return context.header(data, size * count)
                }
            ),
            (
                CURLOPT_WRITEFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<CurlPoster.Collector>.fromOpaque(userData!).takeUnretainedValue()
                    return context.body(data, size * count)
                }
            ),
        ]
        setupFailure = CurlSecureSetup.firstFailure(options)?.message
    }

    deinit {
        curl_easy_cleanup(easy)
        errorBuffer.deallocate()
    }

    /// POSTs `body` to `url` (whose host is `host`, for the certificate rules) with `headers`
    /// (`Name: value` lines), within `timeout` for the whole request (`CURLOPT_TIMEOUT_MS`, whole
    /// milliseconds rounded up), and returns the answer. Blocks the calling thread, never longer than that.
    func post(url: String, host: String, headers: [String], body: [UInt8], timeout: Duration) -> Response {
        if let setupFailure { return Response(failure: setupFailure) }
        let collector = Collector()
        let pointer = Unmanaged.passUnretained(collector).toOpaque()
        // No "Expect: 100-continue" round trip before the body.
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers + ["Expect:"] { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        handshake.host = host
        handshake.brokenRule = nil
        errorBuffer.update(repeating: 0, count: CurlPoster.errorBufferSize)
        let code: CURLcode = body.withUnsafeBufferPointer { bytes in
            let options: [(CURLoption, CURLcode)] = [
                (CURLOPT_URL, carillon_easy_setopt_string(easy, CURLOPT_URL, url)),
                (CURLOPT_TIMEOUT_MS, carillon_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, CurlDownloader.milliseconds(timeout))),
                (CURLOPT_HTTPHEADER, carillon_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list.map { UnsafeMutableRawPointer($0) })),
                (CURLOPT_WRITEDATA, carillon_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, pointer)),
                (CURLOPT_HEADERDATA, carillon_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, pointer)),
                (CURLOPT_POSTFIELDSIZE_LARGE, carillon_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, bytes.count)),
                (
                    CURLOPT_POSTFIELDS,
                    carillon_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                ),
            ]
            if let failure = CurlSecureSetup.firstFailure(options) {
                collector.setupFailure = failure.message
                return CURLE_FAILED_INIT
            }
            return curl_easy_perform(easy)
        }
        // The handle must not keep pointers into memory that is gone.
        _ = carillon_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, nil)
        _ = carillon_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil)
        var response = Response(body: collector.bodyBytes, retryAfter: collector.retryAfter)
        var connects = 0
        carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        response.newConnection = connects > 0
        if let failure = collector.setupFailure {
            response.failure = failure
        } else if code != CURLE_OK {
            // A response cut short is no answer: the batch is tried again (the API ignores repeats).
            var message = String(cString: curl_easy_strerror(code))
            let detail = String(cString: errorBuffer)
            if !detail.isEmpty && detail != message { message += " (\(detail))" }
            if let rule = handshake.brokenRule { message += "; App Transport Security: \(rule)" }
            response.failure = message
        } else {
            var status = 0
            carillon_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            response.status = status > 0 ? status : nil
            if status <= 0 { response.failure = "no HTTP status in the response" }
        }
        return response
    }

    /// What the callbacks collect during one request.
    private final class Collector {
        var bodyBytes: [UInt8] = []
        /// The response's head, read by the parser the downloader uses (line endings, 1xx interim
        /// responses, folding): the poster only needs its `Retry-After`.
        var head = ResponseHead()
        var setupFailure: String?

        var retryAfter: String? { head.values("Retry-After").first }

        func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0 else { return count }
            _ = head.add(line: Substring(String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)))
            return count
        }

        func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0 else { return count }
            let room = CurlPoster.maximumBodyBytes - bodyBytes.count
            if room > 0 {
                bodyBytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(count, room)))
            }
            return count
        }
    }
}
