/// Where a download's responses come from: the seam between the decisions (``TransferMachine``) and
/// the transport. libcurl is one source (``CurlDownloader``), a recording another
/// (``RecordedTransferSource``); both are driven by the same loop, ``TransferFeed/run(_:configuration:source:tap:sink:)``,
/// so a replay reaches its verdict through the same code as a live run.
///
/// A source makes one request at a time, as it is asked, and feeds what arrives to the ``TransferFeed``
/// it is given: each head line (``TransferFeed/headLine(_:)``), then each piece of the decoded body
/// (``TransferFeed/body(_:)``), stopping as soon as either returns false. It never decides anything
/// about the response itself: it only reports how the request ended.
protocol TransferSource {
    /// Requests `url` (request `number` of the chain, from 1), feeding `feed` what arrives.
    ///
    /// - Returns: how the request ended, or ``TransferStart/notStarted(code:)`` when it could not be
    ///   made at all (the budget ran out before it, a handle refused an option, a recording lacks it).
    mutating func request(_ url: ImageURL, number: Int, feed: TransferFeed) -> TransferStart
    /// How the chain ended, for the code of its last request (or of the request that was not started).
    mutating func chainEnding(code: Int32) -> ChainEnding
}
