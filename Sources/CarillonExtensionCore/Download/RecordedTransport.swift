import Synchronization

/// A recording as the extension's transport: every download is answered from one
/// ``RecordedTransfer`` by a ``RecordedTransferSource``, which opens no socket. What it lacked and
/// could not check is kept for the caller (``gaps``, ``unchecked``).
package final class RecordedTransport: ImageTransport {
    /// The recording.
    package let transfer: RecordedTransfer
    /// The settings the downloads run under.
    package let configuration: DownloadConfiguration
    /// The instant certificates are judged at, in seconds since 1970.
    package let at: Int64
    /// How a request's URL finds its recorded hop.
    package let match: RecordedURLMatch
    private let found = Mutex<(gaps: [RecordedTransferSource.Gap], unchecked: [String], answered: [Int])>(([], [], []))

    /// A transport answering from `transfer` under `configuration`, judging certificates at `at`,
    /// finding each request's hop by `match`.
    package init(transfer: RecordedTransfer, configuration: DownloadConfiguration, at: Int64, match: RecordedURLMatch = .exact) {
        self.transfer = transfer
        self.configuration = configuration
        self.at = at
        self.match = match
    }

    /// What the recording lacked for a decision, over every download made so far.
    package var gaps: [RecordedTransferSource.Gap] { found.withLock { $0.gaps } }
    /// The checks that could not be made, over every download made so far.
    package var unchecked: [String] { found.withLock { $0.unchecked } }
    /// The hops that answered, in order (``RecordedTransferSource/answered``), over every download made so far.
    package var answered: [Int] { found.withLock { $0.answered } }

    func download(_ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String?, into sink: DownloadSink)
        throws(Outcome) -> TransferReport
    {
        var source = RecordedTransferSource(transfer: transfer, configuration: configuration, at: at, match: match)
        let report = TransferFeed.run(url, configuration: configuration, source: &source, sink: sink)
        found.withLock {
            $0.gaps += source.gaps
            $0.unchecked += source.unchecked
            $0.answered += source.answered
        }
        return report
    }
}
