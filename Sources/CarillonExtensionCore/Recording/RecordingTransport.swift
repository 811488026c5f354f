/// The extension's transport while recording: a ``DownloaderPool`` that keeps every full handshake's
/// chain and resumes no TLS session, each download heard by a ``WireTap``: the requests as sent, and
/// the final body decoded and as received, streamed as they arrive to files staged in a directory
/// (never held in memory). What each download saw is kept as a ``RecordedDownload`` until taken
/// (``take(_:)``), which waits for a download still under way.
package final class RecordingTransport: ImageTransport {
    private let pool: DownloaderPool
    /// Where bodies are staged (the recording's `bodies` directory).
    package let bodiesDirectory: String
    /// Per URL, the downloads under way and those ended and not taken yet.
    private let captures = CapturedDownloads()
    /// When time-will-expire comes after delivery in the run recorded, when it is known.
    package let expireAfter: Duration?
    /// The certificates the configuration's extra CA file holds (DER): the trust the chains were
    /// judged under beside the system's store, recorded so that a replay judges them alike.
    package let trust: [[UInt8]]

    /// A recording transport for `configuration`, staging bodies in `bodiesDirectory` (which exists);
    /// `expireAfter`: when time-will-expire comes in the run recorded.
    package init(configuration: DownloadConfiguration, expireAfter: Duration? = nil, bodiesDirectory: String) {
        pool = DownloaderPool(configuration: configuration, recording: true)
        self.bodiesDirectory = bodiesDirectory
        self.expireAfter = expireAfter
        trust = RecordingTransport.certificates(inFile: configuration.extraCAFile)
    }

    /// The certificates of a PEM file, or none (no file, or one that cannot be read: the handshake
    /// then trusted nothing more either).
    static func certificates(inFile path: String?) -> [[UInt8]] {
        guard let path, let bytes = try? FileSystem.readFile(path, limit: 4 << 20, policy: .regularFile) else { return [] }
        return PEMChain.certificates(in: String(decoding: bytes, as: UTF8.self))
    }

    /// The settings the downloads run under.
    package var configuration: DownloadConfiguration { pool.configuration }

    /// The oldest download of `url` (as the payload named it) not taken yet, removed from the transport.
    ///
    /// A verdict can come before its download has ended: a payload whose time-will-expire came while a
    /// shared download goes on for the others is delivered at once. Such a download is waited for, for
    /// at most its budget and a second (the transfer ends by then; the run's end cancels it sooner), so
    /// that the recording holds what the server sent, the part after the expiry included.
    package func take(_ url: String) -> RecordedDownload? {
        captures.take(url, waitingAtMost: pool.configuration.limits.budget + .seconds(1))
    }

    /// Discards every download never taken, and its staged body (at the end of a run).
    package func discardRemaining() {
        for download in captures.removeAll() {
            download.stagedBody?.discard()
            download.wire?.staged?.discard()
        }
    }

    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    {
        try record(url, cancellation: cancellation, sinkFile: nil, into: sink)
    }

    /// A live download has no whole file to offer (`adopt` is never called); the sink's file is linked.
    func download(
        _ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String, into sink: DownloadSink, adopting adopt: (String) -> Bool
    ) throws(Outcome) -> TransferReport {
        try record(url, cancellation: cancellation, sinkFile: sinkFile, into: sink)
    }

    /// Downloads `url` into `sink` and keeps what the download saw (``take(_:)``); `sinkFile`, when
    /// given, is the file the sink appends the pieces it takes to.
    private func record(_ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String?, into sink: DownloadSink)
        throws(Outcome) -> TransferReport
    {
        let started = Timestamp.now()
        captures.started(url.absoluteString)
        var recorded: RecordedDownload?
        defer { captures.ended(url.absoluteString, recorded) }
        // The tap hears every piece libcurl delivers, whatever the decisions: the recorded body is what
        // the server sent, up to where the transfer stopped, not only what the sink took. What the sink
        // took is already in its file, which the recording links instead of writing the bytes again.
        let tap = WireTap(directory: bodiesDirectory, sinkFile: sinkFile)
        let report = try pool.withDownloader { $0.download(url, cancellation: cancellation, tap: tap, into: sink) }
        let heard = tap.finish()
        let finalBody =
            heard.body.staged.map { RecordedHop.Body.file(path: $0.temporaryPath) } ?? .absent(why: heard.body.failure ?? "not recorded")
        var transfer = RecordedTransfer(report: report, finalBody: finalBody)
        transfer.trust = trust
        if !transfer.hops.isEmpty {
            transfer.hops[transfer.hops.count - 1].arrival = heard.arrival.map {
                ArrivalSample(milliseconds: $0.milliseconds, bytes: $0.bytes)
            }
        }
        recorded = RecordedDownload(
            url: url.absoluteString, startedAt: started, transfer: transfer,
            requestHeaders: pool.configuration.requestHeaders.fields, bodyBytes: heard.body.bytes, bodySHA256: heard.body.sha256,
            stagedBody: heard.body.staged, arrival: heard.arrival, sentRequests: heard.sentRequests,
            wire: heard.wire.map { ($0.staged, $0.bytes, $0.sha256) },
            lastPiece: heard.lastPiece)
        return report
    }
}

/// What one recorded download saw: the hops and connections (``RecordedTransfer``, whose final hop's
/// body is the staged file), the request's fields as configured (not redacted), and the body's size,
/// digest and arrival schedule.
package struct RecordedDownload: Sendable {
    /// The payload's URL.
    package var url: String
    /// When the download started (wall clock).
    package var startedAt: Timestamp
    /// The hops and connections.
    package var transfer: RecordedTransfer
    /// The request's fields as configured, values as given (what a hop whose request libcurl did not
    /// show is recorded with).
    package var requestHeaders: [HTTPField]
    /// Decoded body bytes of the final response.
    package var bodyBytes: Int
    /// Their SHA-256, lowercase hex.
    package var bodySHA256: String
    /// The body's staged file (under a temporary name in the bodies directory): the caller publishes
    /// or discards it.
    package var stagedBody: FileSystem.StagedFile?
    /// At most 64 `(milliseconds from the start, cumulative bytes)` samples, the last one the end.
    package var arrival: [(milliseconds: Double, bytes: Int)]
    /// Per hop, the request head's fields as libcurl sent them (Host first), values as given; empty
    /// where it did not say.
    package var sentRequests: [[HTTPField]] = []
    /// The final response's body as received (staged like ``stagedBody``), when it differs from the
    /// decoded one: the caller publishes or discards it.
    package var wire: (staged: FileSystem.StagedFile?, bytes: Int, sha256: String)?
    /// The size of the last decoded piece libcurl delivered (the one that passed the cap, when one did).
    package var lastPiece = 0
}

/// At most 64 arrival samples over a body of unknown length: when full, every other one is dropped
/// and only every second piece after is kept, so the samples stay spread over the whole body; the
/// last piece always ends them.
struct ArrivalSamples {
    private var kept: [(milliseconds: Double, bytes: Int)] = []
    private var latest: (milliseconds: Double, bytes: Int)?
    private var stride = 1
    private var seen = 0

    mutating func add(milliseconds: Double, bytes: Int) {
        seen += 1
        latest = (milliseconds, bytes)
        guard seen % stride == 0 else { return }
        if kept.count == 64 {
            kept = kept.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            stride *= 2
        }
        kept.append((milliseconds, bytes))
    }

    /// The samples, the last piece last.
    var samples: [(milliseconds: Double, bytes: Int)] {
        guard let latest, kept.last?.bytes != latest.bytes else { return kept }
        return kept.count == 64 ? kept.dropLast() + [latest] : kept + [latest]
    }
}

extension Duration {
    /// Milliseconds with their fraction.
    var inMillisecondsFraction: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
