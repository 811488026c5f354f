@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

/// Runs payloads through the extension, `jobs` at a time, printing each result line in input order as
/// soon as it and all before it are done.
struct PayloadRunner: Sendable {
    let runtime: ExtensionRuntime
    let expireAfter: Double
    let io: ToolIO
    var format = OutputFormat.json
    /// Whether to keep each payload's ``ReportEntry`` for `--report`.
    var collectsReport = false

    /// How each payload is shown: JSON Lines (the default, for scripts) or a readable block.
    enum OutputFormat: String, CaseIterable, Sendable {
        case json, text
    }

    /// What a run came to.
    struct Report {
        /// False when any input was unreadable or not a JSON object.
        var allRead: Bool
        /// Each processed payload's reason and elapsed milliseconds, in input order.
        var outcomes: [(reason: Reason, elapsedMilliseconds: Double)]
        /// Each input's card, in input order; empty unless the runner collects them.
        var entries: [ReportEntry] = []
    }

    /// Processes every input.
    func run(_ inputs: [PayloadInput], jobs: Int) -> Report {
        let printer = OrderedPrinter(count: inputs.count, io: io)
        let next = Atomic<Int>(0)
        let allRead = Atomic<Bool>(true)
        let outcomes = Mutex<[(reason: Reason, elapsedMilliseconds: Double)?]>(Array(repeating: nil, count: inputs.count))
        let entries = Mutex<[ReportEntry?]>(Array(repeating: nil, count: collectsReport ? inputs.count : 0))
        let firstFinished = DispatchSemaphore(value: 0)
        // `leads`: this worker signals `firstFinished` after its first payload (or when it has none).
        let work: @Sendable (_ leads: Bool) -> Void = { leads in
            var signalled = !leads
            defer { if !signalled { firstFinished.signal() } }
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                // Once standard output is gone, nothing more can reach the reader: the run ends.
                guard index < inputs.count, io.standardOutput.failure == nil else { return }
                let (line, read, outcome, entry) = process(inputs[index], index: index)
                if !read { allRead.store(false, ordering: .relaxed) }
                outcomes.withLock { $0[index] = outcome }
                if let entry { entries.withLock { $0[index] = entry } }
                printer.complete(index, line: line)
                if !signalled {
                    firstFinished.signal()
                    signalled = true
                }
            }
        }
        let workers = min(jobs, max(inputs.count, 1))
        if workers == 1 {
            // One at a time: on this thread, with each download on it too (no hand-off at all).
            work(false)
        } else {
            let group = DispatchGroup()
            for worker in 0..<workers {
                // A queue of its own per worker: workers block while a notification is processed, and
                // blocking the shared global queue starves it (libdispatch on Linux then adds one thread
                // a second, which stalled --jobs 4 runs by whole seconds).
                DispatchQueue(label: "carillon-nse.process.\(worker)").async(group: group) { work(worker == 0) }
                // The others start once the first payload is done (at most a second later): its TLS
                // handshake then leaves a session that their connections resume (the pool shares one
                // session cache) instead of each making a full handshake at the same moment, as
                // curl --parallel waits for its first connection. A slow first image delays the others'
                // start by at most that second (and a stalled one, which runs on, by exactly that).
                if worker == 0 { _ = firstFinished.wait(timeout: .now() + .seconds(1)) }
            }
            group.wait()
        }
        printer.finish()
        return Report(
            allRead: allRead.load(ordering: .relaxed), outcomes: outcomes.withLock { $0.compactMap { $0 } },
            entries: entries.withLock { $0.compactMap { $0 } })
    }

    /// One payload: its output, whether it was read as a JSON object, its reason and time, and its
    /// report card when the runner collects them.
    private func process(_ input: PayloadInput, index: Int) -> (String, Bool, (reason: Reason, elapsedMilliseconds: Double), ReportEntry?) {
        let payload: Payload
        switch input.readPayload(io: io) {
        case .success(let read): payload = read
        case .failure(let error):
            io.standardError.line("\(CarillonTool.name): \(input.name): \(error.message)")
            let line =
                format == .text
                ? TextBlock.invalid(input, error.message) : ResultLine.invalid(input, error.message)
            let entry = collectsReport ? ReportEntry(invalid: input.name, detail: error.message) : nil
            return (line, false, (.invalidPayload, 0), entry)
        }

        // The CLI plays iOS: time-will-expire comes `expireAfter` seconds after delivery. The result
        // comes back once a cancelled download has removed its partial file.
        let request = NotificationRequest(identifier: "payload-\(index + 1)", payload: payload)
        let result = runtime.process(request, timeWillExpireAfter: expireAfter)
        let warnings = payload.warnings + PayloadHints.warnings(payload.userInfo)
        let line =
            switch format {
            case .json: ResultLine.make(input, result: result, payloadWarnings: warnings)
            case .text: TextBlock.make(input, result: result, payloadWarnings: warnings)
            }
        let entry = collectsReport ? ReportEntry(payload: input.name, result: result, warnings: warnings + result.warnings) : nil
        return (line, true, (result.outcome.reason, result.elapsedMilliseconds), entry)
    }
}

/// Prints lines in index order as they become ready, and a progress line on a terminal.
final class OrderedPrinter: Sendable {
    private struct State {
        var lines: [String?]
        var nextToPrint = 0
        var completed = 0
        var progressShown = false
    }

    private let state: Mutex<State>
    private let io: ToolIO
    private let started = ContinuousClock.now

    init(count: Int, io: ToolIO) {
        state = Mutex(State(lines: Array(repeating: nil, count: count)))
        self.io = io
    }

    func complete(_ index: Int, line: String) {
        state.withLock { state in
            state.lines[index] = line
            state.completed += 1
            var output = ""
            while state.nextToPrint < state.lines.count, let ready = state.lines[state.nextToPrint] {
                output += ready + "\n"
                state.lines[state.nextToPrint] = nil
                state.nextToPrint += 1
            }
            if !output.isEmpty {
                // On a terminal both streams share one line: clear the progress before the output, so
                // that no output line starts after it.
                if state.progressShown { io.standardError.write("\r\u{1B}[K") }
                io.standardOutput.write(output)
            }
            // A progress line only on a terminal, and only once a run has taken a while.
            if io.standardErrorIsTerminal && state.lines.count > 1 && ContinuousClock.now - started > .seconds(1) {
                io.standardError.write("\r\u{1B}[Kprocessed \(state.completed)/\(state.lines.count)")
                state.progressShown = true
            }
        }
    }

    func finish() {
        state.withLock { state in
            if state.progressShown { io.standardError.write("\r\u{1B}[K") }
        }
    }
}
