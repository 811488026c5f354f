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

/// Whether a request was made, and how it ended.
enum TransferStart: Sendable, Equatable {
    /// It was made and ended so.
    case ended(HopEnding)
    /// It was never made; the chain ends with this libcurl code.
    case notStarted(code: Int32)
}

/// A ``TransferMachine`` and the sink the image's body goes to, as one reference a source can hand to
/// C callbacks. The source performs the I/O; this forwards what arrives to the machine and does what
/// it answers (hand a piece to the sink, drop it, stop).
final class TransferFeed {
    /// The decisions so far.
    private(set) var machine: TransferMachine
    /// Dropped when the download ends: the sink must not outlive it.
    private var sink: CurlDownloader.Sink?
    /// A recording's listener: it hears each body piece and whether the sink took it (and what only
    /// the transport sees, through the source).
    let tap: TransferTap?

    init(machine: TransferMachine, tap: TransferTap? = nil, sink: @escaping CurlDownloader.Sink) {
        self.machine = machine
        self.tap = tap
        self.sink = sink
    }

    /// One line of the response head (with or without its CR LF). Returns false when the transfer
    /// must stop (the head was refused).
    func headLine(_ line: Substring) -> Bool {
        machine.receive(headLine: line) == .proceed
    }

    /// One piece of the decoded body. Returns false when the transfer must stop.
    func body(_ piece: UnsafeRawBufferPointer) -> Bool {
        switch machine.receiveBody(count: piece.count) {
        case .discard:
            tap?.body(piece, taken: false)
            return true
        case .stop:
            tap?.body(piece, taken: false)
            return false
        case .deliver:
            let accepted = sink?(piece) ?? false
            machine.delivered(count: piece.count, accepted: accepted)
            tap?.body(piece, taken: accepted)
            return accepted
        }
    }

    /// The source stopped waiting for a redirect's body.
    func cutRedirectBody() {
        machine.cutRedirectBody()
    }

    /// Downloads `url` from `source`, following redirects by the extension's rules, streaming the
    /// image's decoded body into `sink`: the one loop every source is driven by. A recording's `tap`
    /// hears every request start and every body piece.
    static func run<Source: TransferSource>(
        _ url: ImageURL, configuration: DownloadConfiguration, source: inout Source, tap: TransferTap? = nil,
        sink: CurlDownloader.Sink
    ) -> TransferReport {
        withoutActuallyEscaping(sink) { sink in
            let feed = TransferFeed(machine: TransferMachine(url: url, configuration: configuration), tap: tap, sink: sink)
            defer { feed.sink = nil }
            var current = url
            var number = 1
            while true {
                feed.machine.startHop()
                tap?.startHop(number: number)
                switch source.request(current, number: number, feed: feed) {
                case .notStarted(let code):
                    return feed.machine.finish(source.chainEnding(code: code))
                case .ended(let ending):
                    switch feed.machine.endHop(ending) {
                    case .request(let next):
                        current = next
                        number += 1
                    case .finished:
                        return feed.machine.finish(source.chainEnding(code: ending.curlCode))
                    }
                }
            }
        }
    }
}
