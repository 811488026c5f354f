/// One request and its response, as recorded.
package struct RecordedHop: Sendable, Equatable {
    /// Where the decoded body is, or why there is none.
    package enum Body: Sendable, Equatable {
        /// The decoded bytes, in memory (an inline body, already out of base64).
        case bytes([UInt8])
        /// A file holding the decoded bytes (a body kept beside the recording); read in pieces.
        case file(path: String)
        /// No body was recorded: `why` says so as an `undetermined` detail does, naming the request
        /// ("entry 4 (image/png) has no body: Firefox leaves ..."). A request whose decision needs it
        /// ends as ``RecordedTransferSource/Gap/body(url:why:)``, and its download as `undetermined` with these words.
        case absent(why: String)
    }

    /// How the request ended, as seen when recorded.
    package struct End: Sendable, Equatable {
        /// The libcurl code (0: the response ended normally).
        package var curlCode: Int32
        /// libcurl's words for it, with its error buffer's detail ("" when the code is 0).
        package var message: String
        /// A time-will-expire cancellation ended it.
        package var cancelled: Bool
        /// The recording holds no response and no ending for it, only these words of its own (an
        /// exporter's status-0 entry and its error text): the request ends as
        /// ``RecordedTransferSource/Gap/response(url:why:)``. Nil when the ending above is what happened.
        package var unanswered: String?

        /// An ending with `curlCode` (0 by default: a complete response).
        package init(curlCode: Int32 = 0, message: String = "", cancelled: Bool = false, unanswered: String? = nil) {
            self.curlCode = curlCode
            self.message = message
            self.cancelled = cancelled
            self.unanswered = unanswered
        }
    }

    /// The URL requested, as recorded (a reader compares its redacted forms itself).
    package var url: String
    /// "1.0", "1.1", "2", "3", or nil when no response arrived.
    package var httpVersion: String?
    /// The peer's `ip:port` (`[ip]:port` for IPv6), or nil.
    package var remote: String?
    /// The id of the connection it went over (``RecordedConnection/id``), or nil when unknown.
    package var connection: String?
    /// A connection was opened for it (false: it reused an earlier one, so no handshake happened).
    package var newConnection: Bool
    /// The status line, without its line ending ("HTTP/1.1 200 OK", "HTTP/2 200"); "" when no
    /// response arrived. Ignored when ``rawHead`` is given.
    package var statusLine: String
    /// The head's fields in order, duplicates kept, as received. Ignored when ``rawHead`` is given.
    package var fields: [HTTPField]
    /// The head's exact bytes (status line, fields, the blank line; interim 1xx heads included), when
    /// known: they are fed instead of ``statusLine`` and ``fields``.
    package var rawHead: [UInt8]?
    /// The decoded body.
    package var body: Body
    /// Body bytes as they came over the wire, before decoding, when known (libcurl's count, chunk
    /// framing left out).
    package var wireBytes: Int?
    /// The size of the decoded body's last piece as libcurl delivered it (the one that passed the cap,
    /// or that was refused), when recorded: a replay feeds it whole (``RecordedPieces``).
    package var lastPiece: Int?
    /// The body exactly as received (content codings and chunk framing still on), when recorded apart
    /// from the decoded one (it differs from it). Facts only: a replay feeds the decoded body.
    package var wire: RecordedWire?
    /// How the request ended.
    package var end: End
    /// Microseconds from the request's start, cumulative, as libcurl counts them: name lookup,
    /// connect, TLS, first byte, total (0: not reached).
    package var microseconds: [Int64]
    /// Milliseconds from the start of the download to the end of this request.
    package var endMilliseconds: Int
    /// The request was made again, after the live one was refused for its TLS protocol or cipher suite,
    /// with those rules relaxed (``RecordedConnection/offered``): an alternative answer, met only when a
    /// replay's settings would have let that handshake through, never as the recorded chain's own.
    /// When the decoded body arrived: milliseconds from the download's start and the cumulative bytes
    /// by then (at most 64 samples, the last its end), when recorded; a replay whose time runs out during
    /// the body feeds what had come by then.
    package var arrival: [ArrivalSample] = []
    package var relaxedTLS = false

    /// The decoded body's size, as far as the recording knows it (a file's size; 0 when absent).
    var bodyCount: Int {
        switch body {
        case .bytes(let bytes): bytes.count
        case .file(let path): FileSystem.size(path) ?? 0
        case .absent: 0
        }
    }

    /// A recorded request; by default a new connection, a complete response, no timings.
    package init(
        url: String, httpVersion: String? = "1.1", remote: String? = nil, connection: String? = nil, newConnection: Bool = true,
        statusLine: String, fields: [HTTPField] = [], rawHead: [UInt8]? = nil, body: Body, wireBytes: Int? = nil,
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
