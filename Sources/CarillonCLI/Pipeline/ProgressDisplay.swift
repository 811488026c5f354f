@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

/// The progress line on a terminal (``ProgressLine``): drawn on standard error by a timer a few times a
/// second once the run has gone on for a second — never per payload — and cleared before any output
/// line, so that the two never share a line when both streams are one terminal. Made only when
/// standard error is a terminal: a pipe or a file gets none of it.
final class ProgressDisplay: Sendable {
    private let io: ToolIO
    private let snapshot: @Sendable () -> ProgressLine.Snapshot
    /// Whether the line is on the screen now, and whether the run is over.
    private let state = Mutex((shown: false, finished: false))
    /// Signalled to stop the ticks, and by the ticks once they have stopped.
    private let stop = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the ticks, on a thread of their own; `snapshot` says what the run has done at each tick.
    init(io: ToolIO, snapshot: @escaping @Sendable () -> ProgressLine.Snapshot) {
        self.io = io
        self.snapshot = snapshot
        let (stop, stopped) = (self.stop, self.stopped)
        let delay = DispatchTimeInterval.milliseconds(Int(ProgressLine.delay.inMilliseconds))
        let interval = DispatchTimeInterval.milliseconds(Int(ProgressLine.interval.inMilliseconds))
        DispatchQueue(label: "carillon-nse.progress").async { [weak self] in
            defer { stopped.signal() }
            var wait = delay
            while stop.wait(timeout: .now() + wait) == .timedOut {
                guard let self else { return }
                self.draw()
                wait = interval
            }
        }
    }

    /// Runs `write` (output for the same terminal) with the line cleared first.
    func clearing(_ write: () -> Void) {
        state.withLock { state in
            if state.shown {
                io.standardError.write("\r\u{1B}[K")
                state.shown = false
            }
            write()
        }
    }

    /// Stops the timer and clears the line: the summary that follows starts on a clean line.
    func finish() {
        stop.signal()
        stopped.wait()
        clearing {}
        state.withLock { $0.finished = true }
    }

    private func draw() {
        let text = ProgressLine.text(snapshot())
        state.withLock { state in
            guard !state.finished else { return }
            // One line the width of a terminal at most: no character of it is the input's.
            io.standardError.write("\r\u{1B}[K" + text)
            state.shown = true
        }
    }
}
