import Synchronization

/// Removing the events the API acknowledged, cheaply for 10,000 events in a few big files.
///
/// An acknowledged event in a format-1 file is unlinked at once. One in a format-2 file is noted in
/// memory; when every event the file held is acknowledged, the file is unlinked at once; a file only
/// partly acknowledged is rewritten without those events at ``syncRemovals()`` (atomically, under the
/// lock, from the file as it is then, so an event not acknowledged is never dropped), once per file
/// however many batches touched it.
///
/// Why that is safe: an unlink is in the kernel the moment it returns, so a killed process loses none;
/// what a kill (or a power loss before the directory's sync) can undo is only an acknowledgement: the
/// event comes back, is sent again, and the API ignores the repeat (SPEC §5: "an event may be sent
/// twice"). No event can leave the queue before its 2xx either way.
extension EventQueue {
    /// What the last read of the queue found where, and what was acknowledged since.
    struct Placement {
        /// The files holding each event (two only after a crash in a repair or a renumbering).
        var files: [EventKey: [String]] = [:]
        /// How many events each format-2 file held when it was read.
        var counts: [String: Int] = [:]
        /// Acknowledged events of format-2 files not yet removed from them.
        var acknowledged: [String: Set<EventKey>] = [:]
    }

    /// Keeps where `scan` found each event, for the removals to come.
    func remember(_ scan: Scan) {
        var files: [EventKey: [String]] = [:]
        for (queued, file) in scan.events { files[EventKey(queued.event), default: []].append(file) }
        placement.withLock { placement in
            placement.files = files
            placement.counts = scan.batchCounts
        }
    }

    /// Removes events the API acknowledged, without waiting for the disk: files are unlinked when all
    /// their events are acknowledged, and the directory is synced later, once, by ``syncRemovals()``,
    /// which also rewrites the files only partly acknowledged.
    ///
    /// What it saves: one directory fsync per batch (100 for 10,000 events, each a journal commit), and
    /// one rewrite of a big file per batch.
    ///
    /// - Throws: ``FileSystemError`` when a file cannot be removed (one already gone is not an error),
    ///   or the queue cannot be read to find an event not seen by ``contents(now:)``.
    public func removeAcknowledged(_ events: [Event]) throws(FileSystemError) {
        guard !events.isEmpty else { return }
        let keys = events.map(EventKey.init)
        if placement.withLock({ placement in keys.contains { placement.files[$0] == nil } }) { remember(try scan()) }
        let unlink = placement.withLock { placement in
            var unlink: [String] = []
            for key in keys {
                for file in placement.files.removeValue(forKey: key) ?? [] {
                    guard QueuedEventFile.isFileName(file) else {
                        unlink.append(file)
                        continue
                    }
                    placement.acknowledged[file, default: []].insert(key)
                    if let count = placement.counts[file], placement.acknowledged[file]!.count >= count {
                        // Every event it held when read is acknowledged, and a file never gains events.
                        placement.acknowledged[file] = nil
                        placement.counts[file] = nil
                        unlink.append(file)
                    }
                }
            }
            return unlink
        }
        for file in unlink { try FileSystem.removeFile(records.path(of: file)) }
    }

    /// Makes every removal so far durable: rewrites the partly acknowledged files without their
    /// acknowledged events, then `fsync`s the queue directory.
    ///
    /// - Throws: ``FileSystemError`` when the lock cannot be had, a file cannot be rewritten (its
    ///   acknowledged events stay, to be sent again), or the directory cannot be synced.
    public func syncRemovals() throws(FileSystemError) {
        let partial = placement.withLock { placement in
            let partial = placement.acknowledged
            placement.acknowledged = [:]
            return partial
        }
        if !partial.isEmpty {
            try withLock { () throws(FileSystemError) in
                for (file, keys) in partial.sorted(by: { $0.key < $1.key }) { try rewrite(file, dropping: keys) }
            }
        }
        try FileSystem.syncDirectory(directory)
    }

    /// Replaces the format-2 file `name` with itself without the events of `keys` (removes it when none
    /// is left). Reads the file as it is now, so only those events can go. Not durable until the
    /// directory is synced. Called under the lock.
    ///
    /// A damaged file is left as it is: ``contents(now:)`` sets it aside and keeps its good events.
    ///
    /// - Returns: the events removed.
    @discardableResult
    func rewrite(_ name: String, dropping keys: Set<EventKey>) throws(FileSystemError) -> [QueuedEvent] {
        let path = records.path(of: name)
        switch readEventFile(name) {
        case .gone, .damaged: return []
        case .unreadable(let error): throw error
        case .whole(let events):
            let kept = events.filter { !keys.contains(EventKey($0.event)) }
            if kept.count == events.count { return [] }
            if kept.isEmpty {
                try FileSystem.removeFile(path)
            } else {
                _ = try FileSystem.publishAtomically(
                    QueuedEventFile.encode(kept), to: path, mode: 0o600, replace: true, syncDirectory: false)
            }
            placement.withLock { $0.counts[name] = kept.count }
            return events.filter { keys.contains(EventKey($0.event)) }
        }
    }
}
