#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's persistent queue of events awaiting upload, shared safely by threads and processes.
///
/// Layout of the queue directory (0700):
///
///     <queue>/
///         <type>-<delivery-id>.event    0600  one queued event (see ``QueuedEvent`` for the format)
///         .sequence                     0600  the next sequence number: {"format":1,"next":18}\n
///         .lock                         0600  empty; flock'ed around every enqueue and set-aside
///         .tmp-<pid>-<n>-<random>       0600  a write in progress (or left by a crash: removed after an hour)
///         Quarantine/                   0700  event files that could not be read, with <name>.reason
///
/// One file per (type, delivery id), published by `link` (never replacing), keeps exactly one event per
/// pair across threads, processes and crashes. Queue order is the sequence number, taken from the
/// counter under the lock; the counter is advanced durably *before* the events that use the numbers are
/// published, so a crash leaves gaps but never reuses a number or reorders.
///
/// The class holds no state but its path, so it is `Sendable`; all coordination is on disk.
public final class EventQueue: Sendable {
    static let lockName = ".lock"
    static let sequenceName = ".sequence"
    static let quarantineName = "Quarantine"
    private static let sequenceFormatVersion = 1

    /// The queue directory.
    public let directory: String

    /// Opens the queue in `directory`, creating it (0700) if needed.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be created.
    public init(directory: String) throws(FileSystemError) {
        try FileSystem.makeDirectory(directory)
        self.directory = directory
    }

    /// `<queue>/Quarantine`.
    public var quarantineDirectory: String { FileSystem.join(directory, EventQueue.quarantineName) }

    private var lockPath: String { FileSystem.join(directory, EventQueue.lockName) }
    private var sequencePath: String { FileSystem.join(directory, EventQueue.sequenceName) }
    private var quarantine: Quarantine { Quarantine(directory: quarantineDirectory) }

    private func path(for type: EventType, _ id: DeliveryID) -> String {
        FileSystem.join(directory, QueuedEvent.fileName(for: type, id))
    }

    // MARK: Enqueue

    /// Adds `event` durably unless an event of the same type for the same delivery is already queued.
    ///
    /// - Returns: true when added, false when already queued (the queued one is kept as it is).
    /// - Throws: ``FileSystemError`` when the queue cannot be locked or written.
    public func enqueue(_ event: Event) throws(FileSystemError) -> Bool {
        try enqueue(contentsOf: [event])[0].get()
    }

    /// Adds several events under one lock and one counter update (the drain's path: far fewer fsyncs
    /// than one call per event), in the given order.
    ///
    /// - Returns: for each event, in order, true when added, false when already queued (or earlier in
    ///   `events`), or the error that kept it out. When this returns, every added event is durable.
    public func enqueue(contentsOf events: [Event]) -> [Result<Bool, FileSystemError>] {
        guard !events.isEmpty else { return [] }
        do throws(FileSystemError) {
            return try FileSystem.withExclusiveLock(lockPath) { () throws(FileSystemError) in
                var results: [Result<Bool, FileSystemError>?] = Array(repeating: nil, count: events.count)
                var fresh: [Int] = []
                var seen = Set<String>()
                for (index, event) in events.enumerated() {
                    let name = QueuedEvent.fileName(for: event.type, event.deliveryID)
                    if !seen.insert(name).inserted || isQueuedIntact(FileSystem.join(directory, name)) {
                        results[index] = .success(false)
                    } else {
                        fresh.append(index)
                    }
                }
                if !fresh.isEmpty {
                    let first = try reserveSequenceNumbers(fresh.count)
                    var published: [Int] = []
                    for (offset, index) in fresh.enumerated() {
                        let event = events[index]
                        let record = QueuedEvent(event: event, sequence: first + Int64(offset))
                        do throws(FileSystemError) {
                            // Each file is fsynced; the directory once for all of them, below.
                            let result = try FileSystem.publishAtomically(
                                record.encoded(), to: path(for: event.type, event.deliveryID), mode: 0o600,
                                syncDirectory: false)
                            results[index] = .success(result == .published)
                            if result == .published { published.append(index) }
                        } catch {
                            results[index] = .failure(error)
                        }
                    }
                    if !published.isEmpty {
                        do throws(FileSystemError) {
                            try FileSystem.syncDirectory(directory)
                        } catch {
                            // Not durable, so not added: the caller keeps the receipts and tries again.
                            for index in published { results[index] = .failure(error) }
                        }
                    }
                }
                return results.map { $0! }
            }
        } catch {
            return events.map { _ in .failure(error) }
        }
    }

    /// Whether a whole event file is at `path`. A corrupt one there would otherwise make the queue
    /// refuse the event forever, so it is set aside and the event is written anew. Called under the lock.
    private func isQueuedIntact(_ path: String) -> Bool {
        guard FileSystem.exists(path) else { return false }
        switch readEvent(path) {
        case .event: return true
        case .gone: return false
        case .corrupt(let reason):
            do {
                _ = try quarantine.setAside(path, reason: reason)
                return false
            } catch {
                // It cannot be moved, so the publish could not replace it either: leave it to be reported.
                return true
            }
        }
    }

    /// Takes `count` consecutive sequence numbers and durably advances the counter past them, before any
    /// of them is used. Called under the lock.
    private func reserveSequenceNumbers(_ count: Int) throws(FileSystemError) -> Int64 {
        let first = readSequenceCounter() ?? recoverSequenceCounter()
        let next: [(key: String, value: JSONValue)] = [(key: "next", value: .number(String(first + Int64(count))))]
        _ = try FileSystem.publishAtomically(
            RecordFile.encode(version: EventQueue.sequenceFormatVersion, next), to: sequencePath, mode: 0o600, replace: true)
        return first
    }

    /// The counter's value, or nil when the file is missing or unreadable.
    private func readSequenceCounter() -> Int64? {
        guard let bytes = try? FileSystem.readFile(sequencePath, limit: 4096),
            let record = try? RecordFile(parsing: bytes, version: EventQueue.sequenceFormatVersion, maximumBytes: 4096),
            let next = try? record.count("next")
        else { return nil }
        return next
    }

    /// Without a usable counter, continue after the highest sequence number still queued (1 when empty).
    private func recoverSequenceCounter() -> Int64 {
        let names = (try? FileSystem.contentsOfDirectory(directory)) ?? []
        var highest: Int64 = 0
        for name in names where QueuedEvent.isEventFileName(name) {
            if case .event(let queued) = readEvent(FileSystem.join(directory, name)) {
                highest = max(highest, queued.sequence)
            }
        }
        return highest + 1
    }

    // MARK: Reading

    /// The queued events in queue order, and the event files set aside because they could not be read.
    public struct Contents: Sendable, Equatable {
        public var events: [Event]
        public var quarantined: [QuarantinedFile]
    }

    /// Reads every queued event, in queue order. A corrupt event file is set aside into `Quarantine/` and
    /// reported in the result, never fatal. Temporary files left by a crashed writer over an hour ago are
    /// removed.
    ///
    /// - Throws: ``FileSystemError`` only when the queue directory cannot be listed.
    public func contents(now: Timestamp = .now()) throws(FileSystemError) -> Contents {
        var queued: [QueuedEvent] = []
        var corrupt: [String] = []
        for name in try FileSystem.contentsOfDirectory(directory) {
            let path = FileSystem.join(directory, name)
            if name.hasPrefix(StaleTemporaryFiles.prefix) {
                _ = StaleTemporaryFiles.removeIfStale(path, now: now)
            }
            guard QueuedEvent.isEventFileName(name) else { continue }
            switch readEvent(path) {
            case .event(let event): queued.append(event)
            case .gone: break
            case .corrupt: corrupt.append(path)
            }
        }

        var quarantined: [QuarantinedFile] = []
        if !corrupt.isEmpty {
            // Look again under the lock: an enqueue may have just replaced a corrupt file with a good one,
            // which must not be set aside.
            try FileSystem.withExclusiveLock(lockPath) { () throws(FileSystemError) in
                for path in corrupt {
                    switch readEvent(path) {
                    case .event(let event): queued.append(event)
                    case .gone: break
                    case .corrupt(let reason):
                        if let file = try quarantine.setAside(path, reason: reason) { quarantined.append(file) }
                    }
                }
            }
        }
        queued.sort { ($0.sequence, $0.event.type.rawValue, $0.event.deliveryID) < ($1.sequence, $1.event.type.rawValue, $1.event.deliveryID) }
        return Contents(events: queued.map(\.event), quarantined: quarantined)
    }

    /// The queued events in queue order (corrupt files are set aside; see ``contents(now:)``).
    ///
    /// - Throws: ``FileSystemError`` only when the queue directory cannot be listed.
    public func pending() throws(FileSystemError) -> [Event] {
        try contents().events
    }

    /// The pending events as `POST /v1/events` requests of at most `maximumEvents` (1 ... 100), in order.
    ///
    /// - Throws: ``FileSystemError`` only when the queue directory cannot be listed.
    public func batches(maximumEvents: Int = EventBatch.maximumEvents) throws(FileSystemError) -> [EventBatch] {
        EventBatch.batches(of: try pending(), maximumEvents: maximumEvents)
    }

    /// Whether an event of `type` for `id` is queued.
    public func contains(_ type: EventType, _ id: DeliveryID) -> Bool {
        FileSystem.exists(path(for: type, id))
    }

    /// Removes events the server has accepted (an answered batch). Events not queued are ignored.
    ///
    /// - Throws: ``FileSystemError`` when a file cannot be removed or the removal made durable.
    public func remove(_ events: [Event]) throws(FileSystemError) {
        guard !events.isEmpty else { return }
        for event in events { try FileSystem.removeFile(path(for: event.type, event.deliveryID)) }
        try FileSystem.syncDirectory(directory)
    }

    private enum ReadResult {
        case event(QueuedEvent)
        /// Removed meanwhile (by another process's set-aside or removal).
        case gone
        case corrupt(String)
    }

    private func readEvent(_ path: String) -> ReadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: QueuedEvent.maximumFileBytes)
        } catch {
            if error.errno == ENOENT { return .gone }
            return .corrupt(error.errno == EFBIG ? "larger than \(QueuedEvent.maximumFileBytes) bytes" : "cannot read: \(error.reason)")
        }
        do {
            return .event(try QueuedEvent.decode(bytes, fileName: Quarantine.lastComponent(path)))
        } catch {
            return .corrupt(error.message)
        }
    }
}

extension QueuedEvent {
    /// A visible name ending in `.event` (anything else in the queue directory is not an event file).
    static func isEventFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(fileExtension)
    }
}
