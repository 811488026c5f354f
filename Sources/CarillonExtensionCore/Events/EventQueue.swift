import Synchronization

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
