import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The app's persistent queue of events awaiting upload, shared safely by threads and processes.
///
/// Layout of the queue directory (the `.lock`, `.tmp-*` and `Quarantine/` parts are `RecordDirectory`'s):
///
///     <queue>/                          0700  may be reached through a link; a wider mode is tightened
///         batch-<token>.events          0600  the events of one enqueue (format 2, see ``QueuedEventFile``)
///         <type>-<delivery-id>.event    0600  one event, as versions before format 2 wrote them (``QueuedEvent``):
///                                             still read, ordered, removed and set aside; never written
///         .sequence                     0600  the next sequence number: {"format":1,"next":18}\n
///         .lock                         0600  empty; flock'ed around every enqueue, rewrite and set-aside
///         .tmp-<pid>-<n>-<random>       0600  a write in progress (or left by a crash: removed after an hour)
///         Quarantine/                   0700  files that could not be read, with <name>.reason
///
/// One enqueue writes one file for all its new events: written under a temporary name, fsynced, linked
/// under a name never used before, and the directory fsynced once. One event per (type, delivery id) is
/// kept by the enqueue itself: under the lock it reads every queued file (of both formats) and writes
/// only the events none holds. Queue order is the sequence number, taken from the counter under the
/// lock; the counter is advanced durably *before* the events that use the numbers are published, so a
/// crash leaves gaps but never reuses a number or reorders (see `EventQueue+Sequence` for a counter that
/// is missing, corrupt, behind, or out of numbers).
///
/// Files change only by being removed, set aside, or replaced (atomically, under the lock) by the same
/// file without some of its events: a file never gains an event after it is published. Acknowledged
/// events leave as their files empty out (`EventQueue+Acknowledged`).
///
/// Only regular files are read, never through a link and never in a way that can block; anything else
/// under an event file's name, and every name that is not UTF-8, is set aside and reported. A format-2
/// file with a bad line is set aside whole, its good events queued again first (`repairDamaged(_:)`).
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
    /// Where the last read found each event, and the acknowledgements not yet written out.
    let placement = Mutex(Placement())
    /// The format-2 files read whole, by name, while they stay unchanged: a long-lived queue (an app's,
    /// queueing a tap at a time) reads each file once, not at every enqueue.
    let fileCache = Mutex<[String: CachedFile]>([:])

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
        /// For each event, in order: true when added, false when already queued, or the error that kept it out.
        public var results: [Result<Bool, FileSystemError>]
        /// The counter rebuilt or the queue renumbered, said in words.
        public var warnings: [String]
    }

    /// ``enqueue(contentsOf:)``, with the warnings for a counter that had to be rebuilt.
    ///
    /// The new events go into one format-2 file (one per `QueuedEventFile.maximumEvents`): one
    /// fsync for the file and one for the directory, whatever their number.
    public func enqueueReporting(contentsOf events: [Event]) -> EnqueueReport {
        guard !events.isEmpty else { return EnqueueReport(results: [], warnings: []) }
        var warnings: [String] = []
        do throws(FileSystemError) {
            let results = try withLock { () throws(FileSystemError) in
                var results: [Result<Bool, FileSystemError>?] = Array(repeating: nil, count: events.count)
                var fresh: [Int] = []
                var seen = Set<EventKey>()
                // A corrupt old-format file under a new event's name is set aside, as before format 2,
                // when the event was written anew under that name (it now goes into the new file).
                let names = Set(events.map { QueuedEvent.fileName(for: $0.type, $0.deliveryID) })
                let scan = try self.scan(oldFiles: .byName(except: names))
                for file in scan.damaged where names.contains(file.name) {
                    _ = try? records.setAside(file.name, reason: file.reason)
                }
                let queued = scan.keys
                var foundQueued = false
                for (index, event) in events.enumerated() {
                    let key = EventKey(event)
                    if !seen.insert(key).inserted {
                        results[index] = .success(false)
                    } else if queued.contains(key) {
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
                    var published = false
                    for start in stride(from: 0, to: fresh.count, by: QueuedEventFile.maximumEvents) {
                        let part = start..<min(start + QueuedEventFile.maximumEvents, fresh.count)
                        let batch = part.map { offset in QueuedEvent(event: events[fresh[offset]], sequence: first + Int64(offset)) }
                        do throws(FileSystemError) {
                            // The file is fsynced; the directory once, below. A new name: never refused.
                            _ = try FileSystem.publishAtomically(
                                QueuedEventFile.encode(batch), to: records.path(of: QueuedEventFile.newFileName()), mode: 0o600,
                                syncDirectory: false)
                            for offset in part { results[fresh[offset]] = .success(true) }
                            published = true
                        } catch {
                            for offset in part { results[fresh[offset]] = .failure(error) }
                        }
                    }
                    if published || foundQueued {
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

    // MARK: Reading

    /// The queued events in queue order, and the files set aside because they could not be read.
    public struct Contents: Sendable, Equatable {
        /// The events, in queue order.
        public var events: [Event]
        /// The files set aside while reading, with why.
        public var quarantined: [QuarantinedFile]
    }

    /// Reads every queued event, in queue order, one per (type, delivery id). A corrupt event file,
    /// anything but a regular file under an event file's name, and any name that is not UTF-8 is set
    /// aside into `Quarantine/` and reported in the result, never fatal; a format-2 file with bad lines
    /// is set aside too, and its good events stay queued. Temporary files left by a crashed writer over
    /// an hour ago are removed.
    ///
    /// - Throws: ``FileSystemError`` only when the queue directory cannot be listed, a file cannot be
    ///   read for a reason that may pass, or the lock cannot be had to set a file aside.
    public func contents(now: Timestamp = .now()) throws(FileSystemError) -> Contents {
        var scan = try scan(removingStaleBefore: now)
        var quarantined: [QuarantinedFile] = []
        if !scan.damaged.isEmpty {
            // Look again under the lock: an enqueue or a rewrite may have changed the files since.
            try withLock { () throws(FileSystemError) in
                scan = try self.scan()
                quarantined = try repairDamaged(&scan)
            }
        }
        remember(scan)
        return Contents(events: scan.ordered().map(\.event), quarantined: quarantined)
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

    /// Whether an event of `type` for `id` is queued (false when the queue cannot be read).
    public func contains(_ type: EventType, _ id: DeliveryID) -> Bool {
        if FileSystem.exists(path(for: type, id)) { return true }
        return (try? scan().keys.contains(EventKey(type, id))) ?? false
    }

    /// Removes events the server has accepted (an answered batch), durably. Events not queued are ignored.
    ///
    /// - Throws: ``FileSystemError`` when a file cannot be removed or rewritten, or the removal made durable.
    public func remove(_ events: [Event]) throws(FileSystemError) {
        guard !events.isEmpty else { return }
        try removeAcknowledged(events)
        try syncRemovals()
    }
}

extension QueuedEvent {
    /// A visible name ending in `.event` (anything else in the queue directory is not an event file).
    static func isEventFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(fileExtension)
    }

    /// The (type, delivery id) a canonical `<type>-<delivery-id>.event` name gives, or nil.
    static func key(fromFileName name: String) -> EventKey? {
        for type in EventType.allCases {
            let prefix = type.rawValue + "-"
            guard name.hasPrefix(prefix), name.hasSuffix(fileExtension) else { continue }
            let id = name.dropFirst(prefix.count).dropLast(fileExtension.count)
            guard let deliveryID = DeliveryID(String(id)), fileName(for: type, deliveryID) == name else { return nil }
            return EventKey(type, deliveryID)
        }
        return nil
    }

    /// Queue order: the sequence, then (for equal sequences, which only a damaged queue holds) type and id.
    static func inQueueOrder(_ a: QueuedEvent, _ b: QueuedEvent) -> Bool {
        (a.sequence, a.event.type.rawValue, a.event.deliveryID) < (b.sequence, b.event.type.rawValue, b.event.deliveryID)
    }
}
