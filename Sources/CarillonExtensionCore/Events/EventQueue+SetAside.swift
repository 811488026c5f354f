extension EventQueue {
    /// Moves the files of `events` into `Quarantine/` with `reason` beside each (a batch the API refused
    /// for good): kept for a person to look at, no longer pending. Events not queued are skipped.
    ///
    /// - Returns: the files moved.
    /// - Throws: ``FileSystemError`` when the lock cannot be had or a file cannot be moved.
    public func setAside(_ events: [Event], reason: String) throws(FileSystemError) -> [QuarantinedFile] {
        try withLock { () throws(FileSystemError) in
            var moved: [QuarantinedFile] = []
            for event in events {
                if let file = try records.setAside(QueuedEvent.fileName(for: event.type, event.deliveryID), reason: reason) {
                    moved.append(file)
                }
            }
            return moved
        }
    }
}
