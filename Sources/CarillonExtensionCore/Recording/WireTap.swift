/// A recording's ``TransferTap``: per request of the chain, the request head as sent; for the last
/// request, every piece of the decoded body libcurl delivered (the one that passed the cap or that the
/// sink refused included) and the body bytes as received, each captured as it arrives in a file
/// staged in the recording's bodies directory (never held whole in memory), with counts, digests and
/// the decoded body's arrival samples. The decoded body is written once: while the sink takes every
/// piece into its own file (the attachment), that file is linked (``StreamedCapture``).
///
/// The recorded body is thus what the server sent, bounded only by what libcurl delivered before the
/// transfer stopped. A request that is followed by another (a redirect) keeps only its request head.
final class WireTap: TransferTap {
    /// What one download's tap heard.
    struct Heard: Sendable {
        /// Per request, in order: the fields of the request head as sent (Host first; the request line
        /// left out); empty when the transport did not say.
        var sentRequests: [[HTTPField]]
        /// The last request's decoded body.
        var body: StreamedCapture.Captured
        /// The last request's body as received, when it differs from ``body`` (a content coding, chunk
        /// framing, a body that stopped early); nil when the same bytes, or when the transport did not say.
        var wire: StreamedCapture.Captured?
        /// The decoded body's arrival: at most 64 `(milliseconds from the start, cumulative bytes)`.
        var arrival: [(milliseconds: Double, bytes: Int)]
        /// The size of the last decoded piece delivered (the one that passed the cap, when one did).
        var lastPiece: Int
    }

    private let directory: String
    /// The file the download's sink appends the pieces it takes to (from empty), if any.
    private let sinkFile: String?
    /// Bytes the sink has taken over the whole chain: a hop's capture follows the sink file only while
    /// it is the hop that started it empty.
    private var sinkTaken = 0
    private let clock = ContinuousClock.now
    private var sentHeads: [[UInt8]] = []
    private var body: StreamedCapture
    private var received: ReceivedBody
    private var arrival = ArrivalSamples()
    private var lastPiece = 0

    /// A tap staging the bodies in `directory` (which exists); `sinkFile`, when given, is the empty
    /// file the download's sink appends each piece it takes to.
    init(directory: String, sinkFile: String? = nil) {
        self.directory = directory
        self.sinkFile = sinkFile
        body = StreamedCapture(directory: directory, sinkFile: sinkFile)
        received = ReceivedBody(directory: directory)
    }

    func startHop(number: Int) {
        sentHeads.append([])
        body.discard()
        received.discard()
        body = StreamedCapture(directory: directory, sinkFile: sinkTaken == 0 ? sinkFile : nil)
        received = ReceivedBody(directory: directory)
        arrival = ArrivalSamples()
        lastPiece = 0
    }

    func requestHead(_ bytes: UnsafeRawBufferPointer) {
        if sentHeads.isEmpty { sentHeads.append([]) }
        sentHeads[sentHeads.count - 1].append(contentsOf: bytes)
    }

    func wire(_ bytes: UnsafeRawBufferPointer) {
        received.received(bytes, decoded: body)
    }

    func body(_ piece: UnsafeRawBufferPointer, taken: Bool) {
        if taken { sinkTaken += piece.count }
        body.write(piece, taken: taken)
        received.decodedPiece(piece, decoded: body)
        lastPiece = piece.count
        arrival.add(milliseconds: (ContinuousClock.now - clock).inMillisecondsFraction, bytes: body.bytes)
    }

    /// What was heard, the files closed (or linked); the wire's file is dropped when it holds the
    /// decoded body's bytes exactly.
    func finish() -> Heard {
        // The received body's prefix is read back from the decoded body's file: before that is closed.
        let differs = received.finish(decoded: body)
        let decodedNow = body.finish()
        var wire = differs
        if let same = differs, same.bytes == decodedNow.bytes, same.sha256 == decodedNow.sha256 {
            same.staged?.discard()
            wire = nil
        }
        return Heard(
            sentRequests: sentHeads.map(WireTap.fields(ofRequestHead:)), body: decodedNow, wire: wire, arrival: arrival.samples,
            lastPiece: lastPiece)
    }

    /// The fields of a request head as sent ("GET /a.png HTTP/1.1\r\nHost: x\r\n...\r\n\r\n"), in order:
    /// the request line and the blank line left out, a line without a colon skipped, values without
    /// their surrounding spaces.
    static func fields(ofRequestHead head: [UInt8]) -> [HTTPField] {
        let text = String(decoding: head, as: UTF8.self)
        // "\r\n" is one Character in Swift: split on it and on a bare LF alike.
        return text.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" }.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            return HTTPField(name: String(line[..<colon]), value: String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
        }
    }
}
