/// What the extension downloads images through: a ``DownloaderPool`` (libcurl) live, a
/// ``RecordedTransport`` in a replay. Both run every download through ``TransferFeed`` and its
/// ``TransferMachine``.
protocol ImageTransport: Sendable {
    /// The settings every download runs under (the budget bounds a shared download's thread choice).
    var configuration: DownloadConfiguration { get }
    /// Downloads `url`, following redirects, streaming the image's decoded body into `sink`.
    /// `sinkFile`, when given, is the (empty) file `sink` appends each piece it takes to, in order: a
    /// transport that keeps the body too (a recording) links that file rather than write it again.
    ///
    /// - Throws: an ``Outcome`` when no download could be set up at all.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String?, into sink: DownloadSink)
        throws(Outcome) -> TransferReport
}

extension ImageTransport {
    /// ``download(_:cancellation:sinkFile:into:)`` for a sink that writes no file of its own.
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    {
        try download(url, cancellation: cancellation, sinkFile: nil, into: sink)
    }
}

extension DownloaderPool: ImageTransport {
    func download(_ url: ImageURL, cancellation: DownloadCancellation, sinkFile: String?, into sink: DownloadSink)
        throws(Outcome) -> TransferReport
    {
        try withDownloader { $0.download(url, cancellation: cancellation, into: sink) }
    }
}
