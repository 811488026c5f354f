import Synchronization

/// The extension's transport while recording: a ``DownloaderPool`` that keeps every full handshake's
/// chain and resumes no TLS session, with each image's decoded body also streamed, as it arrives, to
/// a file staged in a directory (never held in memory). What each download saw is kept as a
/// ``RecordedDownload`` until taken (``take(_:)``).
package final class RecordingTransport: ImageTransport {
    private let pool: DownloaderPool
    /// Where bodies are staged (the recording's `bodies` directory).
    package let bodiesDirectory: String
    /// Per URL, the downloads not taken yet, oldest first.
    private let captures = Mutex<[String: [RecordedDownload]]>([:])

    /// A recording transport for `configuration`, staging bodies in `bodiesDirectory` (which exists).
    package init(configuration: DownloadConfiguration, bodiesDirectory: String) {
        pool = DownloaderPool(configuration: configuration, recording: true)
        self.bodiesDirectory = bodiesDirectory
    }

    /// The settings the downloads run under.
    package var configuration: DownloadConfiguration { pool.configuration }

    /// The oldest download of `url` (as the payload named it) not taken yet, removed from the transport.
    package func take(_ url: String) -> RecordedDownload? {
        captures.withLock { captures in
            guard var waiting = captures[url], !waiting.isEmpty else { return nil }
            let first = waiting.removeFirst()
            captures[url] = waiting.isEmpty ? nil : waiting
            return first
        }
    }

    /// Discards every download never taken, and its staged body (at the end of a run).
    package func discardRemaining() {
        let left = captures.withLock { captures in
            defer { captures = [:] }
            return captures.values.flatMap { $0 }
        }
        for download in left { download.stagedBody?.discard() }
    }

    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: CurlDownloader.Sink) throws(Outcome)
        -> TransferReport
    {
        let started = Timestamp.now()
        let clock = ContinuousClock.now
        var body = try? FileSystem.beginStaging(in: bodiesDirectory)
        var bodyFailure: String?
        var digest = SHA256()
        var count = 0
        var arrival = ArrivalSamples()
        let report = try pool.download(url, cancellation: cancellation) { piece in
            if let (descriptor, staged) = body {
                do throws(FileSystemError) {
                    try FileSystem.writeStaging(descriptor, piece, path: staged.temporaryPath, after: count)
                } catch {
                    bodyFailure = error.reason
                    FileSystem.closeDescriptor(descriptor)
                    staged.discard()
                    body = nil
                }
            }
            digest.update(piece)
            count += piece.count
            arrival.add(milliseconds: (ContinuousClock.now - clock).inMillisecondsFraction, bytes: count)
            return sink(piece)
        }
        var staged: FileSystem.StagedFile?
        if let (descriptor, file) = body {
            do throws(FileSystemError) {
                try FileSystem.finishStaging(descriptor, path: file.temporaryPath)
                staged = file
            } catch {
                bodyFailure = error.reason
                file.discard()
            }
        } else if bodyFailure == nil {
            bodyFailure = "the body file could not be created in \(Quoting.display(bodiesDirectory))"
        }
        let finalBody: RecordedHop.Body =
            if let staged { .file(path: staged.temporaryPath) } else { .absent(why: bodyFailure ?? "not recorded") }
        let recorded = RecordedDownload(
            url: url.absoluteString, startedAt: started, transfer: RecordedTransfer(report: report, finalBody: finalBody),
            requestHeaders: pool.configuration.requestHeaders.fields, bodyBytes: count, bodySHA256: digest.hex(),
            stagedBody: staged, arrival: arrival.samples)
        captures.withLock { $0[url.absoluteString, default: []].append(recorded) }
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
    /// The request's fields as sent on every hop, values as given.
    package var requestHeaders: [RequestHeaders.Field]
    /// Decoded body bytes of the final response.
    package var bodyBytes: Int
    /// Their SHA-256, lowercase hex.
    package var bodySHA256: String
    /// The body's staged file (under a temporary name in the bodies directory): the caller publishes
    /// or discards it.
    package var stagedBody: FileSystem.StagedFile?
    /// At most 64 `(milliseconds from the start, cumulative bytes)` samples, the last one the end.
    package var arrival: [(milliseconds: Double, bytes: Int)]
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
