import Synchronization

/// Prints lines in index order as they become ready, and hands each payload's record to the tally in that
/// order, clearing the progress line (``ProgressDisplay``, on a terminal) before each output. Holds only
/// the lines waiting for an earlier one.
final class OrderedPrinter: Sendable {
    private struct State {
        var waiting: [Int: (line: String, record: PayloadRecord)] = [:]
        var nextToPrint = 0
    }

    private let state = Mutex(State())
    private let io: ToolIO
    private let tally: RunTally
    private let progress: ProgressDisplay?
    /// Called once for each line printed, after the lock is let go.
    private let onPrinted: @Sendable () -> Void

    init(io: ToolIO, tally: RunTally, progress: ProgressDisplay? = nil, onPrinted: @escaping @Sendable () -> Void) {
        self.io = io
        self.tally = tally
        self.progress = progress
        self.onPrinted = onPrinted
    }

    /// One payload's line and record, ready (``complete(_:)``).
    typealias Done = (index: Int, line: String, record: PayloadRecord)

    func complete(_ index: Int, line: String, record: PayloadRecord) { complete([(index, line, record)]) }

    /// Takes a worker's finished payloads in one lock round-trip, and prints every line now ready in one
    /// write: the lines stay in input order, and none waits for more than the batch it came in.
    func complete(_ done: [Done]) {
        guard !done.isEmpty else { return }
        let printed = state.withLock { state -> Int in
            var room = 0
            for item in done {
                state.waiting[item.index] = (item.line, item.record)
                room += item.line.utf8.count + 1
            }
            // Room for this batch's lines at least, rather than growing the text line by line.
            var output = ""
            output.reserveCapacity(room)
            var printed = 0
            while let ready = state.waiting.removeValue(forKey: state.nextToPrint) {
                output += ready.line
                output += "\n"
                tally.add(ready.record)
                state.nextToPrint += 1
                printed += 1
            }
            if !output.isEmpty {
                // On a terminal both streams share one line: the progress is cleared before the output,
                // so that no output line starts after it.
                if let progress {
                    progress.clearing { io.standardOutput.write(output) }
                } else {
                    io.standardOutput.write(output)
                }
            }
            return printed
        }
        for _ in 0..<printed { onPrinted() }
    }

    func finish() { progress?.finish() }
}
