/// libcurl as a ``TransferSource``: one download of a ``CurlDownloader``, under its budget and a
/// cancellation. The downloader makes each request on its handles; the deadline covers the whole chain.
struct CurlTransferSource: TransferSource {
    let downloader: CurlDownloader
    let cancellation: DownloadCancellation
    let start: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant

    init(downloader: CurlDownloader, cancellation: DownloadCancellation, start: ContinuousClock.Instant = .now) {
        self.downloader = downloader
        self.cancellation = cancellation
        self.start = start
        deadline = start + max(downloader.configuration.limits.budget, .zero)
    }

    mutating func request(_ url: ImageURL, number: Int, feed: TransferFeed) -> TransferStart {
        downloader.request(url, feed: feed, cancellation: cancellation, start: start, deadline: deadline)
    }

    mutating func chainEnding(code: Int32) -> ChainEnding {
        downloader.chainEnding(code: code, start: start)
    }
}
