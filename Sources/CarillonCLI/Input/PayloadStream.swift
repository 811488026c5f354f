@_spi(Tooling) import CarillonExtensionCore
import Synchronization

/// The payloads of a run, one at a time and in input order: files as they are, and the lines of JSON
/// Lines inputs (`*.jsonl`, `*.ndjson`, and `-` with `--lines`) read in 64 KiB chunks as they are
/// wanted, so that memory never grows with an input's length. With a ``Shard``, only the payloads that
/// fall to it by its ``ShardRule``: by position (counted over all inputs in order, each file and each
/// non-blank line one), or by the image the payload fetches (SPEC §6c).
///
/// Standard input is read only when nothing else can be handed out: a process in a pipe (`--lines -`
/// between a writer that waits for each answer) answers each line before it reads the next.
final class PayloadStream: Sendable {
    /// The shard of a run spread over N: payloads at positions K, K + N, K + 2N… (by position).
    typealias Shard = CarillonExtensionCore.Shard

    /// A payload handed out: its ordinal among those handed out (0, 1, 2…), the input, and its position
    /// over all inputs (what a bundle records).
    typealias Item = (index: Int, input: PayloadInput, position: Int)

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
        var givenBack: [Item] = []
        /// Whether every input has been read to its end.
        var ended = false
        /// Bytes of JSON Lines lines handed on (blank ones aside), and of payload files passed.
        var bytesRead = 0
    }

    private let state: Mutex<State>
    private let linesFromStandardInput: Bool
    private let shard: Shard?
    private let rule: ShardRule
    /// What `--shard-by image` hashes with each URL (``FleetPlan/downloadOptionsText``).
    private let downloadOptions: String
    /// The digest of every payload's name and bytes, when a bundle records it (`digestsInput`).
    private let digest: Mutex<InputDigest?>
    private let digestsInput: Bool
    private let limit: Int

    init(
        _ inputs: [PayloadInput], linesFromStandardInput: Bool = false, shard: Shard? = nil, rule: ShardRule = .position,
        downloadOptions: String = "", digestsInput: Bool = false, limit: Int
    ) {
        state = Mutex(State(inputs: inputs))
        self.linesFromStandardInput = linesFromStandardInput
        self.shard = shard
        self.rule = rule
        self.downloadOptions = downloadOptions
        digest = Mutex(digestsInput ? InputDigest() : nil)
        self.digestsInput = digestsInput
        self.limit = limit
    }

    /// The next payload, or nil at the end.
    func next() -> Item? { next(upTo: 1).first }

    /// Up to `count` payloads in input order with their ordinals, in one lock round-trip; empty at the
    /// end. Payloads handed back come first, and a batch never mixes them with new ones, so that its
    /// ordinals are always ascending. Standard input is read only for a batch that is still empty.
    func next(upTo count: Int) -> [Item] {
        state.withLock { state -> [Item] in
            if !state.givenBack.isEmpty {
                let taken = min(count, state.givenBack.count)
                defer { state.givenBack.removeFirst(taken) }
                return Array(state.givenBack[0..<taken])
            }
            var batch: [Item] = []
            batch.reserveCapacity(count)
            while batch.count < count, let input = nextPosition(&state, mayWait: batch.isEmpty) {
                state.positions += 1
                guard takes(input, position: state.positions - 1) else { continue }
                state.handedOut += 1
                batch.append((state.handedOut - 1, input, state.positions - 1))
            }
            return batch
        }
    }

    /// Returns payloads taken but not started (in ascending order), for the next ``next(upTo:)`` to
    /// hand out before any new one: a worker stuck on a slow payload gives the rest of its batch back.
    func giveBack(_ payloads: ArraySlice<Item>) {
        guard !payloads.isEmpty else { return }
        state.withLock { state in
            state.givenBack.append(contentsOf: payloads)
            state.givenBack.sort { $0.index < $1.index }
        }
    }

    /// How many payloads were handed out, once the stream has ended.
    var count: Int { state.withLock { $0.handedOut } }

    /// Whether some payload comes from standard input: a pipe whose writer may wait for each answer.
    var readsStandardInput: Bool { state.withLock { $0.inputs.contains(.standardInput) } }

    /// How far through the input the stream is, for the progress line.
    var progress: InputProgress {
        state.withLock { state in
            InputProgress(positions: state.positions, bytesRead: state.bytesRead, ended: state.ended)
        }
    }

    /// How much input there is, for the progress line: the number of payloads when every input is one,
    /// else the bytes of the files; nil when standard input is among them (its length is unknown).
    func measureTotal() -> ProgressLine.InputTotal? {
        let inputs = state.withLock { $0.inputs }
        var bytes = 0
        var linesFiles = false
        for input in inputs {
            switch input {
            case .standardInput: return nil
            case .file(let path, _):
                linesFiles = linesFiles || JSONLinePayload.isJSONLines(path)
                bytes += FileSystem.size(path) ?? 0
            case .line, .made: break
            }
        }
        return linesFiles ? .bytes(bytes) : .payloads(inputs.count)
    }

    /// What the whole input was, once the stream has ended: its payload positions and their digest
    /// (empty without `digestsInput`).
    func inputIdentity(whole: Bool) -> ResultBundle.Input {
        let positions = state.withLock { $0.positions }
        let identity = digest.withLock { (taken: inout InputDigest?) -> ResultBundle.Input? in
            guard let found = taken.take() else { return nil }
            return found.identity(payloads: positions, whole: whole)
        }
        return identity ?? ResultBundle.Input(payloads: positions, sha256: "", whole: whole)
    }

    /// Whether this run's shard takes the payload at `position`; adds it to the input's digest.
    private func takes(_ input: PayloadInput, position: Int) -> Bool {
        let byImage = shard != nil && rule == .image
        let bytes = digestsInput || byImage ? Self.bytes(of: input, limit: limit) : nil
        if digestsInput {
            digest.withLock { $0?.add(name: input.nameBytes ?? Array(input.name.utf8), displayName: input.name, bytes: bytes) }
        }
        guard let shard else { return true }
        var key: String?
        if byImage, let bytes, let payload = try? Payload(bytes: bytes), let url = ShardRule.fetchedImage(payload) {
            key = ShardRule.imageKey(url: url, downloadOptions: downloadOptions)
        }
        return rule.shard(position: position, imageKey: key, count: shard.count) == shard.index
    }

    /// A payload's bytes without standard input's (which only its runner reads): nil when unreadable.
    private static func bytes(of input: PayloadInput, limit: Int) -> [UInt8]? {
        switch input {
        case .line(let line): return line.problem == nil ? line.bytes : nil
        case .made(_, let bytes): return bytes
        case .file(let path, let named): return try? FileSystem.readFile(path, limit: limit, policy: named ? .namedByUser : .regularFile)
        case .standardInput: return nil
        }
    }

    /// The next input position, nil at the end (or, without `mayWait`, when only standard input could
    /// give one).
    private func nextPosition(_ state: inout State, mayWait: Bool) -> PayloadInput? {
        while true {
            if state.pendingNext < state.pending.count {
                state.pendingNext += 1
                let line = state.pending[state.pendingNext - 1]
                // Counted as handed on, not as read ahead in 64 KiB: the progress line's "how far".
                state.bytesRead += line.bytes.count + 1
                return .line(line)
            }
            state.pending.removeAll(keepingCapacity: true)
            state.pendingNext = 0
            if var reader = state.reader {
                // A pipe is read only for a batch with nothing in it yet: what was read is answered first.
                if reader.path == nil && !mayWait { return nil }
                state.reader = reader.read(into: &state.pending) ? reader : nil
                continue
            }
            guard state.nextInput < state.inputs.count else {
                state.ended = true
                return nil
            }
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
            case .file(let path, _):
                state.bytesRead += FileSystem.size(path) ?? 0
                return input
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
        if ownsDescriptor { system_close(descriptor) }
        return false
    }
}
