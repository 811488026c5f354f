/// What one image download did, request by request, as `curl -w '%{json}'` would show it: the
/// transfer trace of SPEC §6. A plain value the downloader fills; a caller renders it.
public struct DownloadTrace: Sendable, Equatable {
    /// The negotiated TLS protocol and cipher suite of a new connection (OpenSSL's names).
    public struct TLS: Sendable, Equatable {
        /// The protocol, as OpenSSL names it (`TLSv1.3`).
        public var version: String
        /// The cipher suite, as OpenSSL names it (`TLS_AES_256_GCM_SHA384`).
        public var cipher: String
        /// The key exchange's group, as OpenSSL names it (`X25519`, `prime256v1`, `ffdhe2048`); nil
        /// with RSA key exchange or when not known. Recorded with a connection, never in the trace's line.
        package var group: String?

        @_spi(Tooling) public init(version: String, cipher: String) {
            self.version = version
            self.cipher = cipher
        }
    }

    /// Milliseconds from the start of one request, cumulative, as libcurl reports them
    /// (`CURLINFO_NAMELOOKUP_TIME_T`, `_CONNECT_`, `_APPCONNECT_`, `_STARTTRANSFER_`, `_TOTAL_`). A
    /// step the request never reached is nil; each present value is at least the one before.
    public struct Timings: Sendable, Equatable {
        /// When the name was resolved.
        public var dns: Double?
        /// When the TCP connection was made.
        public var connect: Double?
        /// When the TLS handshake completed.
        public var tls: Double?
        /// When the first byte of the response arrived.
        public var firstByte: Double?
        /// When the request ended.
        public var total: Double

        /// Each step as given (a line's trace read back).
        package init(dns: Double?, connect: Double?, tls: Double?, firstByte: Double?, total: Double) {
            self.dns = dns
            self.connect = connect
            self.tls = tls
            self.firstByte = firstByte
            self.total = total
        }

        /// From libcurl's microsecond counters (0: not reached, or not applicable on a reused
        /// connection). A step that reports 0 while a later one was reached took no time of its own (a
        /// reused connection): it takes the value before it; steps after the last one reached are nil.
        public static func cumulative(microseconds raw: [Int64], total: Int64) -> Timings {
            let steps = Array(raw.prefix(4)) + Array(repeating: 0, count: max(0, 4 - raw.count))
            let lastReached = steps.lastIndex(where: { $0 > 0 }) ?? -1
            var values: [Double?] = []
            var running: Int64 = 0
            for (index, value) in steps.enumerated() {
                guard index <= lastReached else {
                    values.append(nil)
                    continue
                }
                running = max(running, value)
                values.append(Double(running) / 1000)
            }
            return Timings(
                dns: values[0], connect: values[1], tls: values[2], firstByte: values[3],
                total: Double(max(running, total)) / 1000)
        }
    }

    /// One request of the chain: the payload's URL, then one per redirect followed.
    public struct Hop: Sendable, Equatable {
        /// The URL requested.
        public var url: String
        /// nil when no status line arrived.
        public var status: Int?
        /// "1.1", "2"...; nil when no response arrived.
        public var httpVersion: String?
        /// The peer's `ip:port` (`[ip]:port` for IPv6); nil before a connection.
        public var remote: String?
        /// The `Location` header of a redirect.
        public var location: String?
        /// The `Content-Type` header, as sent.
        public var contentType: String?
        /// The announced `Content-Length`, when there was exactly one number.
        public var contentLength: Int?
        /// nil on a reused connection (no handshake happened) or before one completed.
        public var tls: TLS?
        /// The content codings the body was decoded from, as "gzip" or "gzip, br" (lowercased, in the
        /// order applied); nil for an identity body or a response whose body was not the image's.
        public var contentEncoding: String?
        /// Body bytes received on the wire, before decoding.
        public var wireBytes: Int
        /// Body bytes after decoding: what the image's sink got, or a redirect's discarded body.
        public var decodedBytes: Int
        /// When each step of the request was reached.
        public var timings: Timings

        @_spi(Tooling) public init(
            url: String, status: Int? = nil, httpVersion: String? = nil, remote: String? = nil, location: String? = nil,
            contentType: String? = nil, contentLength: Int? = nil, tls: TLS? = nil, contentEncoding: String? = nil,
            wireBytes: Int = 0, decodedBytes: Int = 0, timings: Timings
        ) {
            self.url = url
            self.status = status
            self.httpVersion = httpVersion
            self.remote = remote
            self.location = location
            self.contentType = contentType
            self.contentLength = contentLength
            self.tls = tls
            self.contentEncoding = contentEncoding
            self.wireBytes = wireBytes
            self.decodedBytes = decodedBytes
            self.timings = timings
        }
    }

    /// Where the transfer was when it ended.
    public enum Phase: String, Sendable, Equatable, CaseIterable {
        /// Resolving the host, connecting, the TLS handshake, waiting for the response head, receiving the body, or done.
        case dns, connect, tls, waiting, body, done

        /// The phase from what the last request reached (libcurl's counters in microseconds, 0 when
        /// not reached; on a reused connection libcurl reports the steps it skipped as reached).
        /// `finished`: it ended normally or by a decision on a complete head. `connected`: the peer's
        /// address is known (libcurl reports the connect time only with the handshake, so a stalled
        /// handshake shows none). `newConnection`: false when an earlier request's connection was
        /// reused (no handshake, whatever the counters say).
        public static func decide(
            finished: Bool, connected: Bool, newConnection: Bool = true, dns: Int64, connect: Int64, tls: Int64, firstByte: Int64
        ) -> Phase {
            if finished { return .done }
            if !connected && connect == 0 { return dns == 0 ? .dns : .connect }
            if firstByte == 0 { return tls == 0 && newConnection ? .tls : .waiting }
            return .body
        }
    }

    /// "while waiting for the response head from cdn.example", after which a detail gives the bytes.
    public static func describe(_ phase: Phase, host: String?) -> String {
        let host = host ?? "the server"
        switch phase {
        case .dns: return "while resolving \(host)"
        case .connect: return "while connecting to \(host)"
        case .tls: return "during the TLS handshake with \(host)"
        case .waiting: return "while waiting for the response head from \(host)"
        case .body: return "while receiving the body from \(host)"
        case .done: return "after the response from \(host)"
        }
    }

    /// The host of the last request, for details.
    public var host: String? { hops.last.flatMap { try? ImageURL(validating: $0.url).host } }

    /// How an interrupted transfer ended, for a `timeout` or `expired` detail: the phase, the host and
    /// the body bytes received.
    var endDescription: String {
        "\(Self.describe(phase, host: host)), after \(bodyBytes) body byte\(bodyBytes == 1 ? "" : "s")"
    }

    /// A verified image's geometry (frames > 1: an animated GIF).
    public struct Image: Sendable, Equatable {
        /// The format the bytes are.
        public var type: ImageType
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Frames: 1 for a still image.
        public var frames: Int

        @_spi(Tooling) public init(type: ImageType, width: Int, height: Int, frames: Int) {
            self.type = type
            self.width = width
            self.height = height
            self.frames = frames
        }

        /// The geometry of a verified image, or nil when its header gave none (a size of 0×0).
        @_spi(Tooling) public init?(_ image: VerifiedImage) {
            guard image.width > 0 || image.height > 0 else { return nil }
            self.init(type: image.type, width: image.width, height: image.height, frames: image.frames)
        }
    }

    /// The requests made, in order: the payload's URL, then one per redirect followed.
    public var hops: [Hop]
    /// The request's header fields as sent on every hop, `Authorization` and `Cookie` values redacted.
    public var requestHeaders: [HTTPField]
    /// Body bytes of the final response received (decoded).
    public var bodyBytes: Int
    /// The time budget the download ran under.
    public var budget: Duration
    /// Where the transfer was when it ended.
    public var phase: Phase
    /// nil unless the image was verified.
    public var image: Image?

    @_spi(Tooling) public init(
        hops: [Hop], requestHeaders: [HTTPField] = [], bodyBytes: Int, budget: Duration, phase: Phase,
        image: Image? = nil
    ) {
        self.hops = hops
        self.requestHeaders = requestHeaders
        self.bodyBytes = bodyBytes
        self.budget = budget
        self.phase = phase
        self.image = image
    }
}
