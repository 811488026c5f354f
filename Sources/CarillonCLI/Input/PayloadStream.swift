@_spi(Tooling) import CarillonExtensionCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The payloads of a run, one at a time and in input order: files as they are, and the lines of JSON
/// Lines inputs (`*.jsonl`, `*.ndjson`, and `-` with `--lines`) read in 64 KiB chunks as they are
/// wanted, so that memory never grows with an input's length. With a ``Shard``, only the payloads whose
/// position (counted over all inputs in order, each file and each non-blank line one) falls to it.
final class PayloadStream: Sendable {
    /// The shard of a run spread over N: payloads at positions K, K + N, K + 2N…
    struct Shard: Equatable {
        var index: Int
        var count: Int

        /// Parses `K/N` with 0 ≤ K < N; nil when it is not that.
        init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, index < count
            else { return nil }
            self.index = index
            self.count = count
        }

        func takes(_ position: Int) -> Bool { position % count == index }
    }

    private struct State {
        var inputs: [PayloadInput]
        var nextInput = 0
        var reader: LineReader?
        var pending: [JSONLinePayload] = []
        var pendingNext = 0
        /// Payloads seen (every position, whether this shard takes it or not).
        var positions = 0
        /// Payloads handed out.
        var handedOut = 0
        /// Payloads handed back untouched (``giveBack(_:)``), lowest index first: taken before any new one.
        var givenBack: [(index: Int, input: PayloadInput)] = []
    }

    private let state: Mutex<State>
    private let linesFromStandardInput: Bool
    private let shard: Shard?
    private let limit: Int

    init(_ inputs: [PayloadInput], linesFromStandardInput: Bool = false, shard: Shard? = nil, limit: Int) {
        state = Mutex(State(inputs: inputs))
        self.linesFromStandardInput = linesFromStandardInput
        self.shard = shard
        self.limit = limit
    }

    /// The next payload and its ordinal among those handed out (0, 1, 2…), or nil at the end.
    func next() -> (index: Int, input: PayloadInput)? { next(upTo: 1).first }

    /// Up to `count` payloads in input order with their ordinals, in one lock round-trip; empty at the
    /// end. Payloads handed back come first, and a batch never mixes them with new ones, so that its
    /// ordinals are always ascending.
    func next(upTo count: Int) -> [(index: Int, input: PayloadInput)] {
        state.withLock { state -> [(index: Int, input: PayloadInput)] in
            if !state.givenBack.isEmpty {
                let taken = min(count, state.givenBack.count)
                defer { state.givenBack.removeFirst(taken) }
                return Array(state.givenBack[0..<taken])
            }
            var batch: [(index: Int, input: PayloadInput)] = []
            batch.reserveCapacity(count)
            while batch.count < count, let input = nextPosition(&state) {
                state.positions += 1
                guard shard?.takes(state.positions - 1) ?? true else { continue }
                state.handedOut += 1
                batch.append((state.handedOut - 1, input))
            }
            return batch
        }
    }

    /// Returns payloads taken but not started (in ascending order), for the next ``next(upTo:)`` to
    /// hand out before any new one: a worker stuck on a slow payload gives the rest of its batch back.
    func giveBack(_ payloads: ArraySlice<(index: Int, input: PayloadInput)>) {
        guard !payloads.isEmpty else { return }
        state.withLock { state in
            state.givenBack.append(contentsOf: payloads)
            state.givenBack.sort { $0.index < $1.index }
        }
    }

    /// How many payloads were handed out, once the stream has ended.
    var count: Int { state.withLock { $0.handedOut } }

    private func nextPosition(_ state: inout State) -> PayloadInput? {
        while true {
            if state.pendingNext < state.pending.count {
                state.pendingNext += 1
                return .line(state.pending[state.pendingNext - 1])
            }
            state.pending.removeAll(keepingCapacity: true)
            state.pendingNext = 0
            if var reader = state.reader {
                let more = reader.read(into: &state.pending)
                state.reader = more ? reader : nil
                continue
            }
            guard state.nextInput < state.inputs.count else { return nil }
            let input = state.inputs[state.nextInput]
            state.nextInput += 1
            switch input {
            case .standardInput where linesFromStandardInput:
                state.reader = LineReader(path: nil, descriptor: 0, limit: limit)
            case .file(let path, let named) where JSONLinePayload.isJSONLines(path):
                do {
                    let descriptor = try FileSystem.openForStreaming(path, policy: named ? .namedByUser : .regularFile)
                    state.reader = LineReader(path: path, descriptor: descriptor, limit: limit)
                } catch {
                    // Its one line says why (`FILE:0` is no line of it: the file as a whole).
                    return .file(path, named: named)
                }
            default:
                return input
            }
        }
    }
}

/// One JSON Lines input being read: its descriptor, a 64 KiB buffer, and the splitter.
private struct LineReader {
    let path: String?
    let descriptor: Int32
    var splitter: JSONLineSplitter
    let ownsDescriptor: Bool

    init(path: String?, descriptor: Int32, limit: Int) {
        self.path = path
        self.descriptor = descriptor
        splitter = JSONLineSplitter(limit: limit)
        ownsDescriptor = path != nil
    }

    /// Reads one chunk, adding the lines it completes; false at the end (the descriptor is then closed).
    mutating func read(into lines: inout [JSONLinePayload]) -> Bool {
        let path = self.path
        let limit = splitter.limit
        let emit: (JSONLineSplitter.Line) -> Void = { line in
            let problem = line.overLimit.map {
                "line of \($0) bytes, over the \(limit)-byte limit for a payload; not read"
            }
            lines.append(JSONLinePayload(path: path, number: line.number, bytes: line.bytes, problem: problem))
        }
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
        defer { chunk.deallocate() }
        var failure: FileSystemError?
        do throws(FileSystemError) {
            let count = try FileSystem.readSome(descriptor, into: UnsafeMutableRawBufferPointer(chunk), path: path ?? "standard input")
            if count > 0 {
                splitter.feed(UnsafeBufferPointer(rebasing: chunk[0..<count]), emit)
                return true
            }
        } catch {
            failure = error
        }
        splitter.finish(emit)
        if let failure {
            let number = (lines.last?.number ?? 0) + 1
            lines.append(JSONLinePayload(path: path, number: number, bytes: [], problem: "cannot read: \(failure.reason)"))
        }
        if ownsDescriptor { close(descriptor) }
        return false
    }
}
