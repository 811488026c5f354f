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
}

extension DownloaderPool: ImageTransport {
    func download(_ url: ImageURL, cancellation: DownloadCancellation, into sink: DownloadSink) throws(Outcome)
        -> TransferReport
    {
        try withDownloader { $0.download(url, cancellation: cancellation, into: sink) }
    }
}
