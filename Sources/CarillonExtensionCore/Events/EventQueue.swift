import Synchronization

/// The app's persistent queue of events awaiting upload, shared safely by threads and processes.
///
/// Layout of the queue directory (the `.lock`, `.tmp-*` and `Quarantine/` parts are ``RecordDirectory``'s):
///
///     <queue>/                          0700  may be reached through a link; a wider mode is tightened
///         <type>-<delivery-id>.event    0600  one queued event (see ``QueuedEvent`` for the format)
///         .sequence                     0600  the next sequence number: {"format":1,"next":18}\n
///         .lock                         0600  empty; flock'ed around every enqueue and set-aside
///         .tmp-<pid>-<n>-<random>       0600  a write in progress (or left by a crash: removed after an hour)
///         Quarantine/                   0700  files that could not be read, with <name>.reason
///
/// One file per (type, delivery id), published by `link` (never replacing), keeps exactly one event per
/// pair across threads, processes and crashes. Queue order is the sequence number, taken from the
/// counter under the lock; the counter is advanced durably *before* the events that use the numbers are
/// published, so a crash leaves gaps but never reuses a number or reorders (see `EventQueue+Sequence`
/// for a counter that is missing, corrupt, behind, or out of numbers).
///
/// Only regular files are read, never through a link and never in a way that can block; anything else
/// under an event's name, and every name that is not UTF-8, is set aside and reported.
public final class EventQueue: Sendable {
    static let sequenceName = ".sequence"

    /// The queue directory.
    public let directory: String
    /// Its layout: lock, temporaries, quarantine.
    @_spi(Tooling) public let records: RecordDirectory
    /// How long an enqueue or a set-aside waits for another process's lock before giving up.
    public let lockWait: Duration
    /// What was put right when the queue was opened (a mode tightened).
    public let openingWarnings: [String]
    /// Whether this object has checked the counter against the queued events (once is enough: every
    /// writer after that advances it under the lock).
    let counterChecked = Mutex(false)

    /// How long a command waits for the queue's lock by default: a few seconds, as an app's launch would.
    public static let defaultLockWait: Duration = FileLock.commandWait

    /// Opens the queue in `directory`, creating it (0700) if needed.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be created, or is not a real directory.
    public init(directory: String, lockWait: Duration = EventQueue.defaultLockWait) throws(FileSystemError) {
        records = RecordDirectory(directory, followsLink: true)
        openingWarnings = try records.prepare(create: true)
        self.directory = directory
        self.lockWait = lockWait
    }

    /// `<queue>/Quarantine`.
    public var quarantineDirectory: String { records.quarantineDirectory }

    var sequencePath: String { records.path(of: EventQueue.sequenceName) }

    func path(for type: EventType, _ id: DeliveryID) -> String {
        records.path(of: QueuedEvent.fileName(for: type, id))
    }

    func withLock<Result>(_ body: () throws(FileSystemError) -> Result) throws(FileSystemError) -> Result {
        try records.withLock(until: .now + lockWait, body)
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
        enqueueReporting(contentsOf: events).results
    }

    /// What an enqueue did: each event's result, and what was put right on the way.
    public struct EnqueueReport: Sendable {
        public var results: [Result<Bool, FileSystemError>]
        /// The counter rebuilt or the queue renumbered, said in words.
        public var warnings: [String]
    }

    /// ``enqueue(contentsOf:)``, with the warnings for a counter that had to be rebuilt.
    public func enqueueReporting(contentsOf events: [Event]) -> EnqueueReport {
        guard !events.isEmpty else { return EnqueueReport(results: [], warnings: []) }
        var warnings: [String] = []
        do throws(FileSystemError) {
            let results = try withLock { () throws(FileSystemError) in
                var results: [Result<Bool, FileSystemError>?] = Array(repeating: nil, count: events.count)
                var fresh: [Int] = []
                var seen = Set<String>()
                var foundQueued = false
                for (index, event) in events.enumerated() {
                    let name = QueuedEvent.fileName(for: event.type, event.deliveryID)
                    if !seen.insert(name).inserted {
                        results[index] = .success(false)
                    } else if try isQueuedIntact(records.path(of: name)) {
                        results[index] = .success(false)
                        foundQueued = true
                    } else {
                        fresh.append(index)
                    }
                }
                // An event found queued may be one whose writer died between its link and the directory's
                // fsync: the caller is about to remove its receipt, so make sure the entry is on disk.
                if foundQueued && fresh.isEmpty { try FileSystem.syncDirectory(directory) }
                if !fresh.isEmpty {
                    let first = try reserveSequenceNumbers(fresh.count, warnings: &warnings)
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
                    if !published.isEmpty || foundQueued {
                        do throws(FileSystemError) {
                            try FileSystem.syncDirectory(directory)
                        } catch {
                            // Not durable, so not added (nor found): the caller keeps the receipts and tries again.
                            for index in results.indices where (try? results[index]?.get()) != nil { results[index] = .failure(error) }
                        }
                    }
                }
                return results.map { $0! }
            }
            return EnqueueReport(results: results, warnings: warnings)
        } catch {
            return EnqueueReport(results: events.map { _ in .failure(error) }, warnings: warnings)
        }
    }

    /// Whether a whole event file is at `path`. A corrupt one there would otherwise make the queue
    /// refuse the event forever, so it is set aside and the event is written anew. Called under the lock.
    private func isQueuedIntact(_ path: String) throws(FileSystemError) -> Bool {
        guard FileSystem.exists(path) else { return false }
        switch readEvent(path) {
        case .event: return true
        case .gone: return false
        case .unreadable(let error): throw error
        case .corrupt(let reason):
            do {
                _ = try records.quarantine.setAside(path, reason: reason)
                return false
            } catch {
                // It cannot be moved, so the publish could not replace it either: leave it to be reported.
                return true
            }
        }
    }

    // MARK: Reading

    /// The queued events in queue order, and the files set aside because they could not be read.
    public struct Contents: Sendable, Equatable {
        public var events: [Event]
        public var quarantined: [QuarantinedFile]
    }

    /// Reads every queued event, in queue order. A corrupt event file, anything but a regular file under
    /// an event's name, and any name that is not UTF-8 is set aside into `Quarantine/` and reported in
    /// the result, never fatal. Temporary files left by a crashed writer over an hour ago are removed.
    ///
    /// - Throws: ``FileSystemError`` only when the queue directory cannot be listed, or its lock not had.
    public func contents(now: Timestamp = .now()) throws(FileSystemError) -> Contents {
        var queued: [QueuedEvent] = []
        var suspect: [(name: String, reason: String?)] = []
        for entry in try records.entries() {
            let name = entry.name
            if name.hasPrefix(StaleFiles.temporaryPrefix) {
                StaleFiles.removeIfStale(records.path(of: name), now: now)
                continue
            }
            if !entry.isUTF8 {
                suspect.append((name, "the file name is not valid UTF-8"))
                continue
            }
            guard QueuedEvent.isEventFileName(name) else { continue }
            switch readEvent(records.path(of: name)) {
            case .event(let event): queued.append(event)
            case .gone: break
            case .unreadable(let error): throw error
            case .corrupt: suspect.append((name, nil))
            }
        }

        var quarantined: [QuarantinedFile] = []
        if !suspect.isEmpty {
            // Look again under the lock: an enqueue may have just replaced a corrupt file with a good one,
            // which must not be set aside.
            try withLock { () throws(FileSystemError) in
                for (name, fixedReason) in suspect {
                    var reason = fixedReason
                    if reason == nil {
                        switch readEvent(records.path(of: name)) {
                        case .event(let event): queued.append(event)
                        case .gone: break
                        case .unreadable(let error): throw error
                        case .corrupt(let why): reason = why
                        }
                    }
                    if let reason, let file = try records.setAside(name, reason: reason) { quarantined.append(file) }
                }
            }
        }
        queued.sort(by: QueuedEvent.inQueueOrder)
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

    enum ReadResult {
        case event(QueuedEvent)
        /// Removed meanwhile (by another process's set-aside or removal).
        case gone
        /// Not read this time for a reason that may pass (out of descriptors or memory, an I/O error):
        /// never a reason to set the file aside, nor to take it as absent.
        case unreadable(FileSystemError)
        case corrupt(String)
    }

    /// Reads one event file: a regular file, never through a link, never blocking.
    func readEvent(_ path: String) -> ReadResult {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: QueuedEvent.maximumFileBytes, policy: .regularFileNoFollow)
        } catch {
            switch error.errno {
            case ENOENT: return .gone
            case EFBIG: return .corrupt("larger than \(QueuedEvent.maximumFileBytes) bytes")
            case EMFILE, ENFILE, ENOMEM, EINTR, EAGAIN, EIO: return .unreadable(error)
            default: return .corrupt("cannot read: \(error.reason)")
            }
        }
        do {
            return .event(try QueuedEvent.decode(bytes, fileName: FileSystem.lastComponent(path)))
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

    /// Queue order: the sequence, then (for equal sequences, which only a damaged queue holds) type and id.
    static func inQueueOrder(_ a: QueuedEvent, _ b: QueuedEvent) -> Bool {
        (a.sequence, a.event.type.rawValue, a.event.deliveryID) < (b.sequence, b.event.type.rawValue, b.event.deliveryID)
    }
}
