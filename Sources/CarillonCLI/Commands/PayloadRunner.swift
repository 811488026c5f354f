import CarillonExtensionCore
import Dispatch
import Synchronization

/// Runs payloads through the extension, `jobs` at a time, printing each result line in input order as
/// soon as it and all before it are done.
struct PayloadRunner: Sendable {
    let configuration: ExtensionConfiguration
    let pool: DownloaderPool
    let expireAfter: Double
    let io: ToolIO

    /// Processes every input; returns false when any was unreadable or not a JSON object.
    func run(_ inputs: [PayloadInput], jobs: Int) -> Bool {
        let printer = OrderedPrinter(count: inputs.count, io: io)
        let next = Atomic<Int>(0)
        let allRead = Atomic<Bool>(true)
        let work: @Sendable () -> Void = {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                // Once standard output is gone, nothing more can reach the reader: the run ends.
                guard index < inputs.count, io.standardOutput.failure == nil else { return }
                let (line, read) = process(inputs[index], index: index)
                if !read { allRead.store(false, ordering: .relaxed) }
                printer.complete(index, line: line)
            }
        }
        let workers = min(jobs, max(inputs.count, 1))
        if workers == 1 {
            // One at a time: on this thread, with each download on it too (no hand-off at all).
            work()
        } else {
            let group = DispatchGroup()
            for worker in 0..<workers {
                // A queue of its own per worker: workers block while a notification is processed, and
                // blocking the shared global queue starves it (libdispatch on Linux then adds one thread
                // a second, which stalled --jobs 4 runs by whole seconds).
                DispatchQueue(label: "carillon-nse.process.\(worker)").async(group: group, execute: work)
            }
            group.wait()
        }
        printer.finish()
        return allRead.load(ordering: .relaxed)
    }

    /// One payload: its output line, and whether it was read as a JSON object.
    private func process(_ input: PayloadInput, index: Int) -> (String, Bool) {
        let payload: Payload
        switch input.readPayload(io: io) {
        case .success(let read): payload = read
        case .failure(let error):
            io.standardError.write("\(CarillonTool.name): \(input.name): \(error.message)\n")
            return (ResultLine.invalid(input, error.message), false)
        }

        // The CLI plays iOS: time-will-expire comes `expireAfter` seconds after delivery. The result
        // comes back once a cancelled download has removed its partial file.
        let request = NotificationRequest(identifier: "payload-\(index + 1)", payload: payload)
        let result = NotificationService.process(
            request, configuration: configuration, pool: pool, timeWillExpireAfter: expireAfter)
        return (ResultLine.make(input, result: result, payloadWarnings: payload.warnings + PayloadHints.warnings(payload.userInfo)), true)
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
