/// A ``TransferMachine`` and the sink the image's body goes to, as one reference a source can hand to
/// C callbacks. The source performs the I/O; this forwards what arrives to the machine and does what
/// it answers (hand a piece to the sink, drop it, stop).
final class TransferFeed {
    /// The decisions so far.
    private(set) var machine: TransferMachine
    /// Dropped when the download ends: the sink must not outlive it.
    private var sink: DownloadSink?
    /// A recording's listener: it hears each body piece and whether the sink took it (and what only
    /// the transport sees, through the source).
    let tap: TransferTap?
    /// Whoever takes a body that is a whole file as that file (``offerWhole(file:)``); dropped with the sink.
    private var adopt: ((String) -> Bool)?

    init(machine: TransferMachine, tap: TransferTap? = nil, sink: @escaping DownloadSink, adopt: ((String) -> Bool)? = nil) {
        self.machine = machine
        self.tap = tap
        self.sink = sink
        self.adopt = adopt
    }

    /// The source is about to feed the body of the response whose head was just decided, all of it,
    /// from the file at `path`: whoever asked for the image may take the file as it is (it still gets
    /// every piece). True when it did.
    func offerWhole(file path: String) -> Bool {
        guard case .image = machine.disposition else { return false }
        return adopt?(path) ?? false
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
        sink: DownloadSink, adopting adopt: (String) -> Bool = { _ in false }
    ) -> TransferReport {
        withoutActuallyEscaping(sink) { sink in
            withoutActuallyEscaping(adopt) { adopt in
                run(
                    url, configuration: configuration, source: &source,
                    feed: TransferFeed(
                        machine: TransferMachine(url: url, configuration: configuration), tap: tap, sink: sink, adopt: adopt))
            }
        }
    }

    /// ``run(_:configuration:source:tap:sink:adopting:)``'s loop, on `feed`.
    private static func run<Source: TransferSource>(
        _ url: ImageURL, configuration: DownloadConfiguration, source: inout Source, feed: TransferFeed
    ) -> TransferReport {
        defer {
            feed.sink = nil
            feed.adopt = nil
        }
        var current = url
        var number = 1
        while true {
            feed.machine.startHop()
            feed.tap?.startHop(number: number)
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
