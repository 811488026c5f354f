extension EventQueue {
    /// Moves `events` into `Quarantine/` with `reason` beside them (a batch the API refused for good):
    /// kept for a person to look at, no longer pending. Events not queued are skipped.
    ///
    /// A format-1 file is moved as it is. From a format-2 file, the refused events are written as a
    /// format-2 file of their own into the quarantine (under the file's name), and only then is the
    /// file rewritten without them: a crash in between leaves a refused event both set aside and still
    /// queued (sent again, refused again), never lost.
    ///
    /// - Returns: the files set aside (one per queue file the events came from).
    /// - Throws: ``FileSystemError`` when the lock cannot be had, or a file cannot be read or moved.
    func setAside(_ events: [Event], reason: String) throws(FileSystemError) -> [QuarantinedFile] {
        guard !events.isEmpty else { return [] }
        let refused = Set(events.map(EventKey.init))
        return try withLock { () throws(FileSystemError) in
            let scan = try self.scan()
            var byFile: [String: [QueuedEvent]] = [:]
            for (queued, file) in scan.events where refused.contains(EventKey(queued.event)) {
                byFile[file, default: []].append(queued)
            }
            var moved: [QuarantinedFile] = []
            for (file, queued) in byFile.sorted(by: { $0.key < $1.key }) {
                if !QueuedEventFile.isFileName(file) {
                    if let record = try records.setAside(file, reason: reason) { moved.append(record) }
                    continue
                }
                let record = try records.quarantine.keep(
                    QueuedEventFile.encode(queued.sorted(by: QueuedEvent.inQueueOrder)), from: records.path(of: file), reason: reason)
                moved.append(record)
                // Acknowledged events waiting for their rewrite go in the same one.
                let acknowledged = placement.withLock { $0.acknowledged.removeValue(forKey: file) } ?? []
                try rewrite(file, dropping: Set(queued.map { EventKey($0.event) }).union(acknowledged))
            }
            placement.withLock { placement in
                for key in refused { placement.files[key] = nil }
            }
            if !byFile.isEmpty { try FileSystem.syncDirectory(directory) }
            return moved
        }
    }
}
