/// What the extension downloads images through: a ``DownloaderPool`` (libcurl) live, a
/// ``RecordedTransport`` in a replay. Both run every download through ``TransferFeed`` and its
/// ``TransferMachine``.
protocol ImageTransport: Sendable {
    /// The settings every download runs under (the budget bounds a shared download's thread choice).
    var configuration: DownloadConfiguration { get }
    /// Downloads `url`, following redirects, streaming the image's decoded body into `sink`.
    ///
    /// - Throws: an ``Outcome`` when no download could be set up at all.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    /// ``download(_:cancellation:into:)``, offering `adopt` the path of a file that holds the whole
    /// decoded body before its pieces reach `sink` (a replay's body kept beside its recording): when it
    /// returns true the caller has the file's bytes already and need not keep the pieces it still sees.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink, adopting adopt: (String) -> Bool)
        throws(Outcome) -> TransferReport
    /// ``download(_:cancellation:into:adopting:)``, told the file `sinkFile`: the (empty) file `sink`
    /// appends each piece it takes to, in order. A transport that keeps the body too (a recording) links
    /// that file rather than write the bytes a second time.
    func download(
        _ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String, into sink: DownloadSink, adopting adopt: (String) -> Bool
    ) throws(Outcome) -> TransferReport
}

extension ImageTransport {
    /// A transport that has no file to offer downloads as it always does.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink, adopting adopt: (String) -> Bool)
        throws(Outcome) -> TransferReport
    {
        try download(url, cancellation: cancellation, into: sink)
    }

    /// A transport that keeps no body of its own has no use for the sink's file.
    func download(
        _ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String, into sink: DownloadSink, adopting adopt: (String) -> Bool
    ) throws(Outcome) -> TransferReport {
        try download(url, cancellation: cancellation, into: sink, adopting: adopt)
    }
}

extension DownloaderPool: ImageTransport {
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    {
        try withDownloader { $0.download(url, cancellation: cancellation, into: sink) }
    }
}
