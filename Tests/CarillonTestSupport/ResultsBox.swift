import Synchronization

/// Results gathered from several threads.
public final class ResultsBox: Sendable {
    private let results = Mutex<[Command.Result?]>([])

    public init() {}

    public func append(_ result: Command.Result?) { results.withLock { $0.append(result) } }

    public var all: [Command.Result?] { results.withLock { $0 } }
}
