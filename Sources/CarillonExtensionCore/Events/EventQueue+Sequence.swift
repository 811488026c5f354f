/// The queue's counter: the next sequence number, kept in `.sequence`.
///
/// Every number read from disk is checked before any arithmetic: a counter that is missing, corrupt,
/// not a regular file, or behind the highest queued sequence is rebuilt from the highest one found (and
/// said); a queue whose numbers would pass ``maximumSequence`` is renumbered 1, 2, 3 … in its order.
/// Nothing here can trap, whatever the files hold.
extension EventQueue {
    /// The largest sequence number handed out: 2^53 − 1, the largest integer every JSON reader keeps exact.
    static let maximumSequence: Int64 = 9_007_199_254_740_991
    private static let sequenceFormatVersion = 1

    /// Takes `count` consecutive sequence numbers and durably advances the counter past them, before any
    /// of them is used. Called under the lock.
    func reserveSequenceNumbers(_ count: Int, warnings: inout [String]) throws(FileSystemError) -> Int64 {
        var first: Int64
        let counter = try readSequenceCounter(warnings: &warnings)
        if case .value(let next) = counter, counterChecked.withLock({ $0 }) {
            first = next
        } else {
            let highest = try highestQueuedSequence()
            first = highest + 1  // highest is at most maximumSequence: no overflow
            switch counter {
            case .value(let next) where next > highest:
                first = next
            case .value(let next):
                warnings.append("the queue's counter (next \(next)) was behind its highest queued sequence \(highest); rebuilt from it")
            case .missing:
                if highest > 0 { warnings.append("the queue's counter was missing; rebuilt from its highest queued sequence \(highest)") }
            case .unusable(let why):
                warnings.append("the queue's counter was unusable (\(why)); rebuilt from its highest queued sequence \(highest)")
            }
        }
        let (next, overflow) = first.addingReportingOverflow(Int64(count))
        if overflow || next - 1 > EventQueue.maximumSequence {
            let renumbered = try renumber()
            warnings.append(
                renumbered == 0
                    ? "the queue's counter had reached \(first); it starts again at 1 (the queue was empty)"
                    : "the queue's sequence numbers reached \(first); its \(renumbered) queued events were renumbered 1…\(renumbered) in their order"
            )
            first = Int64(renumbered) + 1
        }
        let record: [(key: String, value: JSONValue)] = [(key: "next", value: .number(String(first + Int64(count))))]
        _ = try FileSystem.publishAtomically(
            RecordFile.encode(version: EventQueue.sequenceFormatVersion, record), to: sequencePath, mode: 0o600, replace: true)
        // Only once the counter is durably right may later calls trust it without a look at the events.
        counterChecked.withLock { $0 = true }
        return first
    }

    enum Counter {
        case value(Int64)
        case missing
        case unusable(String)
    }

    /// The counter's value, read as a regular file (a FIFO or link there is unusable, never waited on).
    /// Anything but a regular file under its name is set aside first, so that the new counter can take
    /// the name (a directory there would refuse the rename for good). Called under the lock.
    func readSequenceCounter(warnings: inout [String]) throws(FileSystemError) -> Counter {
        let kind = try FileSystem.kind(sequencePath)
        if kind == .missing { return .missing }
        if kind != .regularFile {
            let reason = "the queue's counter is \(kind.description), not a regular file"
            if let file = try records.setAside(EventQueue.sequenceName, reason: reason) {
                warnings.append("\(reason); set aside as \(Quoting.display(file.movedTo))")
            }
            return .unusable(reason)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(sequencePath, limit: 4096, policy: .regularFileNoFollow)
        } catch {
            if error.isMissingFile { return .missing }
            if error.mayPass { throw error }  // never rebuild on it
            return .unusable(error.reason)
        }
        do {
            let record = try RecordFile(parsing: bytes, version: EventQueue.sequenceFormatVersion, maximumBytes: 4096)
            let next = try record.count("next")
            guard next >= 1 else { return .unusable("\"next\" \(next) is not a sequence number") }
            return .value(next)
        } catch {
            return .unusable(error.message)
        }
    }

    /// The highest sequence number queued, in files of both formats (0 when there is none). A number
    /// too far up to leave room after it counts as ``maximumSequence``, which makes the caller renumber.
    ///
    /// - Throws: ``FileSystemError`` when the queue cannot be listed or a file cannot be read for a
    ///   reason that may pass: a number rebuilt from a partial look could be reused.
    private func highestQueuedSequence() throws(FileSystemError) -> Int64 {
        min(try scan().highestSequence, EventQueue.maximumSequence)
    }

    /// Rewrites the whole queue with sequence numbers 1, 2, 3 … in queue order; returns how many.
    ///
    /// Crash-safe without a journal: every event (one per (type, delivery id), the good events of
    /// damaged files included) is first written durably into new format-2 files numbered 1 … n, and
    /// only then are the old files removed. A crash in between leaves each event twice, under its old
    /// number and its new one, which is never higher (the k-th of distinct numbers ≥ 1 is ≥ k); reading
    /// keeps the lower copy (`Scan.ordered`), so the queue reads as renumbered, in the same order, and
    /// the next renumbering (the old copies still hold the high numbers) writes the same and removes
    /// them all. Events sharing a number (only a queue damaged by hand holds them) are ordered by type
    /// and id, before and after. Damaged files are left for ``contents(now:)`` to set aside (their good
    /// events are queued by then). Called under the lock.
    private func renumber() throws(FileSystemError) -> Int {
        let scan = try scan()
        var seen = Set<EventKey>()
        let queued = (scan.events.map(\.queued) + scan.damaged.flatMap(\.salvaged)).sorted(by: QueuedEvent.inQueueOrder)
            .filter { seen.insert(EventKey($0.event)).inserted }
        for start in stride(from: 0, to: queued.count, by: QueuedEventFile.maximumEvents) {
            let part = queued[start..<min(start + QueuedEventFile.maximumEvents, queued.count)].enumerated().map { offset, event in
                QueuedEvent(event: event.event, sequence: Int64(start + offset + 1))
            }
            _ = try FileSystem.publishAtomically(
                QueuedEventFile.encode(part), to: records.path(of: QueuedEventFile.newFileName()), mode: 0o600, syncDirectory: false)
        }
        try FileSystem.syncDirectory(directory)
        for file in Set(scan.events.map(\.file)) { try FileSystem.removeFile(records.path(of: file)) }
        try FileSystem.syncDirectory(directory)
        return queued.count
    }
}
