/// Reading the whole queue: every format-1 `.event` file and every format-2 `.events` file, in one look.
///
/// This is what every operation that must know "is this event queued?" starts from: the enqueue (under
/// the lock), the reading of the contents, the counter's rebuild. It reads each file once, whole, and
/// never blocks on one (only regular files, never through a link).
extension EventQueue {
    /// One look at every queue file.
    struct Scan {
        /// Every event of a whole file, with the file's name (not yet one per (type, delivery id):
        /// a crash while a damaged file was repaired, or a renumbering, may leave two copies).
        var events: [(queued: QueuedEvent, file: String)] = []
        /// How many events each whole format-2 file holds.
        var batchCounts: [String: Int] = [:]
        /// Files that cannot be used as they are.
        var damaged: [Damaged] = []
        /// Format-1 files taken by their names, unread (``OldFiles/byName(except:)``).
        var named: Set<EventKey> = []

        struct Damaged {
            var name: String
            var reason: String
            /// The events still read from a damaged format-2 file: they stay queued.
            var salvaged: [QueuedEvent]
        }

        /// Every (type, delivery id) queued, counting the good events of damaged files.
        var keys: Set<EventKey> {
            var keys = named.union(events.map { EventKey($0.queued.event) })
            for file in damaged { keys.formUnion(file.salvaged.map { EventKey($0.event) }) }
            return keys
        }

        /// The events in queue order, one per (type, delivery id): of two copies, the lower sequence
        /// (the renumbered one, or either of two equal ones) is kept. Damaged files' events are not
        /// here: they count once repaired (``EventQueue/repairDamaged(_:)``).
        func ordered() -> [QueuedEvent] {
            var seen = Set<EventKey>()
            return events.map(\.queued).sorted(by: QueuedEvent.inQueueOrder).filter { seen.insert(EventKey($0.event)).inserted }
        }

        /// The highest sequence queued, counting the good events of damaged files that no whole file
        /// holds (0 when there is none).
        var highestSequence: Int64 {
            let whole = Set(events.map { EventKey($0.queued.event) })
            let salvaged = damaged.lazy.flatMap(\.salvaged).filter { !whole.contains(EventKey($0.event)) }.map(\.sequence).max() ?? 0
            return max(events.lazy.map(\.queued.sequence).max() ?? 0, salvaged)
        }
    }

    /// How a scan takes the format-1 files.
    enum OldFiles {
        /// Read each one.
        case read
        /// Take each one's (type, delivery id) from its name, which the file must match, and read only
        /// those named here (to set a corrupt one aside): enough to know what is queued, and an old
        /// queue of 10,000 files costs a listing, not 10,000 reads.
        case byName(except: Set<String>)
    }

    /// Reads every queue file. With `now`, temporary files abandoned by a crashed writer over an hour
    /// before it are removed on the way. A format-2 file already read by this object, and unchanged
    /// since (``FileIdentity``), is not read again.
    ///
    /// - Throws: ``FileSystemError`` when the directory cannot be listed or a file cannot be read for a
    ///   reason that may pass (out of descriptors or memory, an I/O error): an answer from a partial look
    ///   could queue an event twice or rebuild a counter too low.
    func scan(removingStaleBefore now: Timestamp? = nil, oldFiles: OldFiles = .read) throws(FileSystemError) -> Scan {
        var scan = Scan()
        var cache = fileCache.withLock { $0 }
        var listed = Set<String>()
        for entry in try records.entries() {
            let name = entry.name
            if name.hasPrefix(StaleFiles.temporaryPrefix) {
                if let now { StaleFiles.removeIfStale(records.path(of: name), now: now) }
                continue
            }
            if !entry.isUTF8 {
                scan.damaged.append(Scan.Damaged(name: name, reason: "the file name is not valid UTF-8", salvaged: []))
                continue
            }
            if QueuedEvent.isEventFileName(name) {
                if case .byName(let except) = oldFiles, !except.contains(name), let key = QueuedEvent.key(fromFileName: name) {
                    scan.named.insert(key)
                    continue
                }
                switch readEvent(name) {
                case .record(let queued): scan.events.append((queued, name))
                case .gone: break
                case .unreadable(let error): throw error
                case .damaged(let reason): scan.damaged.append(Scan.Damaged(name: name, reason: reason, salvaged: []))
                }
            } else if QueuedEventFile.isFileName(name) {
                let identity = FileIdentity(records.path(of: name))
                listed.insert(name)
                if let identity, let cached = cache[name], cached.identity == identity {
                    scan.events += cached.events.map { ($0, name) }
                    scan.batchCounts[name] = cached.events.count
                    continue
                }
                switch readEventFile(name) {
                case .whole(let events):
                    scan.events += events.map { ($0, name) }
                    scan.batchCounts[name] = events.count
                    // Cached only under the identity seen before the read: a file replaced meanwhile
                    // shows another identity next time, and is read again.
                    if let identity { cache[name] = CachedFile(identity: identity, events: events) }
                case .damaged(let reason, let salvaged): scan.damaged.append(Scan.Damaged(name: name, reason: reason, salvaged: salvaged))
                case .gone: break
                case .unreadable(let error): throw error
                }
            }
        }
        cache = cache.filter { listed.contains($0.key) }
        fileCache.withLock { $0 = cache }
        return scan
    }

    /// A format-2 file as this object last read it whole.
    struct CachedFile {
        var identity: FileIdentity
        var events: [QueuedEvent]
    }

    /// Reads one format-1 event file (`RecordDirectory`'s rule: a regular file, never through a link,
    /// never blocking), checked against its name.
    func readEvent(_ name: String) -> RecordRead<QueuedEvent> {
        records.readRecord(name, maximumBytes: QueuedEvent.maximumFileBytes) { (bytes) throws(RecordError) in
            try QueuedEvent.decode(bytes, fileName: name)
        }
    }

    enum FileReadResult {
        case whole([QueuedEvent])
        case damaged(String, salvaged: [QueuedEvent])
        /// Removed meanwhile (all its events acknowledged, or set aside by another process).
        case gone
        case unreadable(FileSystemError)
    }

    /// Reads one format-2 file (`RecordDirectory`'s rule, as ``readEvent(_:)``). A file with bad lines
    /// is damaged, its good events salvaged.
    func readEventFile(_ name: String) -> FileReadResult {
        switch records.readRecord(name, maximumBytes: QueuedEventFile.maximumFileBytes, decode: QueuedEventFile.decode) {
        case .record(let decoded) where decoded.isWhole: return .whole(decoded.events)
        case .record(let decoded): return .damaged(decoded.problems.joined(separator: "; "), salvaged: decoded.events)
        case .gone: return .gone
        case .unreadable(let error): return .unreadable(error)
        case .damaged(let reason): return .damaged(reason, salvaged: [])
        }
    }

    /// Sets every damaged file of `scan` aside, after queueing again, in a new file, the good events of
    /// a damaged format-2 file that no whole file holds. Called under the lock, on a scan taken under it.
    ///
    /// Crash-safe: the good events are durably in their new file before the damaged one moves, so a
    /// crash in between leaves them twice (read as one: ``Scan/ordered()``; the next repair finds them
    /// queued and only moves the damaged file), never nowhere.
    ///
    /// - Returns: the files set aside; `scan` then holds the new files' events and no damaged file.
    func repairDamaged(_ scan: inout Scan) throws(FileSystemError) -> [QuarantinedFile] {
        var quarantined: [QuarantinedFile] = []
        for file in scan.damaged {
            var reason = file.reason
            if !file.salvaged.isEmpty {
                let queued = Set(scan.events.map { EventKey($0.queued.event) })
                let missing = file.salvaged.filter { !queued.contains(EventKey($0.event)) }
                if !missing.isEmpty {
                    let name = QueuedEventFile.newFileName()
                    _ = try FileSystem.publishAtomically(QueuedEventFile.encode(missing), to: records.path(of: name), mode: 0o600)
                    scan.events += missing.map { ($0, name) }
                    scan.batchCounts[name] = missing.count
                }
                reason += " (its \(file.salvaged.count) readable events stay queued)"
            }
            if let moved = try records.setAside(file.name, reason: reason) { quarantined.append(moved) }
        }
        scan.damaged = []
        return quarantined
    }
}
