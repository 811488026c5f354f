internal import CCurl

/// The Carillon API's client: GET and POST to a path under the API's base URL, one request at a time
/// over one libcurl easy handle kept for the client's life, so consecutive requests reuse one connection
/// and its TLS session. The events upload and the read-back both use it.
///
/// Set up by ``CurlSecureSetup`` with exactly the downloads' rules (HTTPS only, verification on, App
/// Transport Security, an extra CA file). No redirect is followed. The key goes only into the
/// `Authorization: Bearer` header; libcurl's verbose trace is never switched on, and every failure's
/// words pass through ``APIKey/redacting(_:)``, so the key is never in a response value.
///
/// Bounded in every way an answer can misbehave: each request within the time the caller gives
/// (`CURLOPT_TIMEOUT_MS`); a transfer that moves no byte for ``stallLimit`` ends (`CURLOPT_LOW_SPEED_*`);
/// a body longer than ``maximumBodyBytes`` ends the transfer at the bound (the status is kept, the answer
/// marked ``Response/oversized``), so a 50 MB answer costs at most the bound. Retries: ``exchange``.
final class APIClient {
    /// The request's method.
    enum Method: String, Sendable {
        /// `GET`: no body.
        case get = "GET"
        /// `POST` with a JSON body.
        case post = "POST"
    }

    /// One request's answer, or why none came.
    struct Response: Sendable {
        /// The HTTP status; nil when no whole response head arrived (a network error, a timeout, a reset).
        var status: Int?
        /// The response body, at most ``APIClient/maximumBodyBytes`` bytes.
        var body: [UInt8] = []
        /// The body was longer than the bound: the transfer was ended there and ``body`` is its start.
        var oversized = false
        /// The `Retry-After` header's value, if any.
        var retryAfter: String?
        /// libcurl's words when the request failed (never holding the key).
        var failure: String?
        /// Whether this request opened a new connection (false: one was reused).
        var newConnection = false
    }

    let endpoint: APIEndpoint
    let key: APIKey
    /// Bytes of an answer's body kept at most; a longer answer ends the transfer.
    let maximumBodyBytes: Int
    /// The longest time a transfer may move no byte at all before it ends.
    let stallLimit: Duration

    private let easy: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private static let errorBufferSize = Int(CURL_ERROR_SIZE) + 1
    /// Kept for the handle's life: OpenSSL contexts of cached connections hold its address.
    private let handshake = HandshakeState()
    private let setupFailure: String?

    /// Creates the handle with the shared secure options.
    ///
    /// - Returns: nil when libcurl cannot create a handle (`curl_easy_init`).
    init?(
        endpoint: APIEndpoint, key: APIKey, transportSecurity: TransportSecurity, extraCAFile: String?,
        maximumBodyBytes: Int = 64 * 1024, stallLimit: Duration = .seconds(30)
    ) {
        _ = CurlSecureSetup.globalInitialization
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        self.endpoint = endpoint
        self.key = key
        self.maximumBodyBytes = max(maximumBodyBytes, 0)
        self.stallLimit = max(stallLimit, .seconds(1))
        errorBuffer = .allocate(capacity: APIClient.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: APIClient.errorBufferSize)
        var options = CurlSecureSetup.options(
            easy, transportSecurity: transportSecurity, extraCAFile: extraCAFile, errorBuffer: errorBuffer, handshake: handshake)
        // The stall bound in whole seconds (libcurl's unit), rounded up.
        let stallSeconds = (self.stallLimit.roundedUpMilliseconds + 999) / 1000
        options += [
            (CURLOPT_LOW_SPEED_LIMIT, carillon_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1)),
            (CURLOPT_LOW_SPEED_TIME, carillon_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, stallSeconds)),
            (
                CURLOPT_HEADERFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<APIClient.Collector>.fromOpaque(userData!).takeUnretainedValue()
                    return context.header(data, size * count)
                }
            ),
            (
                CURLOPT_WRITEFUNCTION,
                carillon_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userData in
                    let context = Unmanaged<APIClient.Collector>.fromOpaque(userData!).takeUnretainedValue()
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

    /// Sends one request to `path` under the endpoint (a JSON `body` for a POST), within `timeout` for
    /// the whole request (whole milliseconds rounded up), and returns the answer. Blocks the calling
    /// thread, never longer than that.
    func perform(_ method: Method, _ path: String, body: [UInt8] = [], timeout: Duration) -> Response {
        if let setupFailure { return Response(failure: setupFailure) }
        let collector = Collector(limit: maximumBodyBytes)
        let pointer = Unmanaged.passUnretained(collector).toOpaque()
        var headers = [key.authorizationHeader, "Accept: application/json"]
        // No "Expect: 100-continue" round trip before a body.
        if method == .post { headers += ["Content-Type: application/json", "Expect:"] }
        var list: UnsafeMutablePointer<curl_slist>?
        for header in headers { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        handshake.host = endpoint.host
        handshake.brokenRule = nil
        errorBuffer.update(repeating: 0, count: APIClient.errorBufferSize)
        let code: CURLcode = body.withUnsafeBufferPointer { bytes in
            var options: [(CURLoption, CURLcode)] = [
                (CURLOPT_URL, carillon_easy_setopt_string(easy, CURLOPT_URL, endpoint.url(path))),
                (CURLOPT_TIMEOUT_MS, carillon_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout.roundedUpMilliseconds)),
                (CURLOPT_HTTPHEADER, carillon_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, list.map { UnsafeMutableRawPointer($0) })),
                (CURLOPT_WRITEDATA, carillon_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, pointer)),
                (CURLOPT_HEADERDATA, carillon_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, pointer)),
            ]
            switch method {
            case .get:
                options.append((CURLOPT_HTTPGET, carillon_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)))
            case .post:
                options += [
                    (CURLOPT_POST, carillon_easy_setopt_long(easy, CURLOPT_POST, 1)),
                    (CURLOPT_POSTFIELDSIZE_LARGE, carillon_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, bytes.count)),
                    (
                        CURLOPT_POSTFIELDS,
                        carillon_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                    ),
                ]
            }
            if let failure = CurlSecureSetup.firstFailure(options) {
                collector.setupFailure = failure.message
                return CURLE_FAILED_INIT
            }
            return curl_easy_perform(easy)
        }
        // The handle must not keep pointers into memory that is gone.
        _ = carillon_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, nil)
        _ = carillon_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil)
        return response(code, collector)
    }

    /// The answer from libcurl's result and what the callbacks collected.
    private func response(_ code: CURLcode, _ collector: Collector) -> Response {
        var response = Response(body: collector.bodyBytes, oversized: collector.oversized, retryAfter: collector.retryAfter)
        var connects = 0
        carillon_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
        response.newConnection = connects > 0
        var status = 0
        carillon_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        if let failure = collector.setupFailure {
            response.failure = failure
        } else if code == CURLE_WRITE_ERROR && collector.oversized && status > 0 {
            // Ended at the bound on purpose: the status stands, the body is its start.
            response.status = status
        } else if code != CURLE_OK {
            // A response cut short is no answer.
            var message = String(cString: curl_easy_strerror(code))
            let detail = String(cString: errorBuffer)
            if !detail.isEmpty && detail != message { message += " (\(detail))" }
            if let rule = handshake.brokenRule { message += "; App Transport Security: \(rule)" }
            response.failure = key.redacting(message)
        } else {
            response.status = status > 0 ? status : nil
            if status <= 0 { response.failure = "no HTTP status in the response" }
        }
        return response
    }

    /// What the callbacks collect during one request.
    private final class Collector {
        let limit: Int
        var bodyBytes: [UInt8] = []
        var oversized = false
        /// The response's head, read by the parser the downloader uses (line endings, 1xx interim
        /// responses, folding): the client only needs its `Retry-After`.
        var head = ResponseHead()
        var setupFailure: String?

        init(limit: Int) { self.limit = limit }

        var retryAfter: String? { head.values("Retry-After").first }

        func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0 else { return count }
            _ = head.add(line: Substring(String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)))
            return count
        }

        /// Keeps the body up to the bound; one byte more ends the transfer (returning less than `count`).
        func body(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
            guard let data, count > 0 else { return count }
            let room = limit - bodyBytes.count
            bodyBytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(count, max(room, 0))))
            guard count <= room else {
                oversized = true
                return 0
            }
            return count
        }
    }
}
