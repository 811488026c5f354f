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
    /// When time-will-expire comes, held against the recorded times with the budget.
    package let expireAfter: Duration?
    private let found = Mutex<
        (gaps: [RecordedTransferSource.Gap], unchecked: [String], answered: [Int], usedTrust: Bool, outOfTime: RecordedDeadline.Kind?)
    >(([], [], [], false, nil))

    /// A transport answering from `transfer` under `configuration`, judging certificates at `at`,
    /// finding each request's hop by `match`, holding the recorded times against the budget and
    /// `expireAfter` (time-will-expire).
    package init(
        transfer: RecordedTransfer, configuration: DownloadConfiguration, at: Int64, match: RecordedURLMatch = .exact,
        expireAfter: Duration? = nil
    ) {
        self.transfer = transfer
        self.configuration = configuration
        self.at = at
        self.match = match
        self.expireAfter = expireAfter
    }

    /// What the recording lacked for a decision, over every download made so far.
    package var gaps: [RecordedTransferSource.Gap] { found.withLock { $0.gaps } }
    /// The checks that could not be made, over every download made so far.
    package var unchecked: [String] { found.withLock { $0.unchecked } }
    /// The hops that answered, in order (``RecordedTransferSource/answered``), over every download made so far.
    package var answered: [Int] { found.withLock { $0.answered } }
    /// A chain was judged trusting the recording's extra certificates, in a download made so far.
    package var usedRecordedTrust: Bool { found.withLock { $0.usedTrust } }
    /// The recorded times ran out (the budget, or time-will-expire) in a download made so far.
    package var ranOutOfTime: Bool { found.withLock { $0.outOfTime != nil } }

    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    {
        try download(url, cancellation: cancellation, into: sink) { _ in false }
    }

    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink, adopting adopt: (String) -> Bool)
        throws(Outcome) -> TransferReport
    {
        var source = RecordedTransferSource(
            transfer: transfer, configuration: configuration, at: at, match: match, expireAfter: expireAfter)
        let report = TransferFeed.run(url, configuration: configuration, source: &source, sink: sink, adopting: adopt)
        // Time-will-expire in the recording's time: the notification delivers as it would have then.
        if source.outOfTime == .expiry { cancellation.expireAsRecorded() }
        found.withLock {
            $0.gaps += source.gaps
            $0.unchecked += source.unchecked
            $0.answered += source.answered
            $0.usedTrust = $0.usedTrust || source.usedRecordedTrust
            $0.outOfTime = $0.outOfTime ?? source.outOfTime
        }
        return report
    }
}
