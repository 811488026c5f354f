/// What a recording says one download's server sent, request by request: the input of
/// ``RecordedTransferSource``, which feeds it to the same decisions as a live download
/// (``TransferMachine``), and of a replaying ``ExtensionRuntime``.
///
/// A reader fills it from a HAR (`_carillon` format 1 or a foreign export); the recording side
/// fills it from a live download. Everything is as received, never as concluded: the head's lines in
/// order, the decoded body, and how each request ended.
@_spi(Tooling) public struct RecordedTransfer: Sendable, Equatable {
    /// Every request recorded, in any order: a request of the chain is matched by its URL
    /// (``RecordedHop/url``, compared exactly), the first unused hop with that URL first.
    public var hops: [RecordedHop]
    /// The connections the hops name (``RecordedHop/connection``), with their TLS facts and chains.
    public var connections: [RecordedConnection]

    /// A recorded transfer of `hops` over `connections`.
    public init(hops: [RecordedHop], connections: [RecordedConnection] = []) {
        self.hops = hops
        self.connections = connections
    }

    /// The connection called `id`, if recorded.
    public func connection(_ id: String?) -> RecordedConnection? {
        guard let id else { return nil }
        return connections.first { $0.id == id }
    }
}

/// One request and its response, as recorded.
@_spi(Tooling) public struct RecordedHop: Sendable, Equatable {
    /// Where the decoded body is, or why there is none.
    public enum Body: Sendable, Equatable {
        /// The decoded bytes, in memory (an inline body, already out of base64).
        case bytes([UInt8])
        /// A file holding the decoded bytes (a body kept beside the recording); read in pieces.
        case file(path: String)
        /// No body was recorded: `why` says so in a few words ("the exporter drops bodies"). A request
        /// whose decision needs it ends as ``RecordedTransferSource/Gap/body(url:why:)``.
        case absent(why: String)
    }

    /// How the request ended, as seen when recorded.
    public struct End: Sendable, Equatable {
        /// The libcurl code (0: the response ended normally).
        public var curlCode: Int32
        /// libcurl's words for it, with its error buffer's detail ("" when the code is 0).
        public var message: String
        /// A time-will-expire cancellation ended it.
        public var cancelled: Bool

        /// An ending with `curlCode` (0 by default: a complete response).
        public init(curlCode: Int32 = 0, message: String = "", cancelled: Bool = false) {
            self.curlCode = curlCode
            self.message = message
            self.cancelled = cancelled
        }
    }

    /// The URL requested, as recorded (a reader compares its redacted forms itself).
    public var url: String
    /// "1.0", "1.1", "2", "3", or nil when no response arrived.
    public var httpVersion: String?
    /// The peer's `ip:port` (`[ip]:port` for IPv6), or nil.
    public var remote: String?
    /// The id of the connection it went over (``RecordedConnection/id``), or nil when unknown.
    public var connection: String?
    /// A connection was opened for it (false: it reused an earlier one, so no handshake happened).
    public var newConnection: Bool
    /// The status line, without its line ending ("HTTP/1.1 200 OK", "HTTP/2 200"); "" when no
    /// response arrived. Ignored when ``rawHead`` is given.
    public var statusLine: String
    /// The head's fields in order, duplicates kept, as received. Ignored when ``rawHead`` is given.
    public var fields: [RecordedField]
    /// The head's exact bytes (status line, fields, the blank line; interim 1xx heads included), when
    /// known: they are fed instead of ``statusLine`` and ``fields``.
    public var rawHead: [UInt8]?
    /// The decoded body.
    public var body: Body
    /// Body bytes as they came over the wire, before decoding, when known.
    public var wireBytes: Int?
    /// How the request ended.
    public var end: End
    /// Microseconds from the request's start, cumulative, as libcurl counts them: name lookup,
    /// connect, TLS, first byte, total (0: not reached).
    public var microseconds: [Int64]
    /// Milliseconds from the start of the download to the end of this request.
    public var endMilliseconds: Int

    /// A recorded request; by default a new connection, a complete response, no timings.
    public init(
        url: String, httpVersion: String? = "1.1", remote: String? = nil, connection: String? = nil, newConnection: Bool = true,
        statusLine: String, fields: [RecordedField] = [], rawHead: [UInt8]? = nil, body: Body, wireBytes: Int? = nil,
        end: End = End(), microseconds: [Int64] = [0, 0, 0, 0, 0], endMilliseconds: Int = 0
    ) {
        self.url = url
        self.httpVersion = httpVersion
        self.remote = remote
        self.connection = connection
        self.newConnection = newConnection
        self.statusLine = statusLine
        self.fields = fields
        self.rawHead = rawHead
        self.body = body
        self.wireBytes = wireBytes
        self.end = end
        self.microseconds = microseconds
        self.endMilliseconds = endMilliseconds
    }
}

/// One header field, as received.
@_spi(Tooling) public struct RecordedField: Sendable, Equatable {
    /// The name, as sent (case kept).
    public var name: String
    /// The value, as sent.
    public var value: String

    /// A field `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One TLS connection, as recorded.
@_spi(Tooling) public struct RecordedConnection: Sendable, Equatable {
    /// The id hops name it by.
    public var id: String
    /// The negotiated protocol and cipher, when known (OpenSSL's names).
    public var tls: DownloadTrace.TLS?
    /// The server sent a CertificateRequest.
    public var certificateRequested: Bool
    /// The certificates the server sent, leaf first, DER; empty when not recorded (or a resumed
    /// session, which sends none).
    public var chain: [[UInt8]]
    /// The session was resumed: no chain was sent on it.
    public var resumed: Bool

    /// A recorded connection.
    public init(
        id: String, tls: DownloadTrace.TLS? = nil, certificateRequested: Bool = false, chain: [[UInt8]] = [], resumed: Bool = false
    ) {
        self.id = id
        self.tls = tls
        self.certificateRequested = certificateRequested
        self.chain = chain
        self.resumed = resumed
    }
}
