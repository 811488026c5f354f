/// Adding events: under the lock, find which are new, take their numbers from the counter, write them
/// into one new format-2 file (one per `QueuedEventFile.maximumEvents`), and fsync the directory once.
///
/// The order of operations is what makes a crash harmless: the counter is advanced durably before the
/// files that use its numbers are published (a crash leaves a gap, never a reused number); each file is
/// written under a temporary name, fsynced and linked under a name never used before; and no event is
/// reported added (or found) until the directory's fsync that follows its link has returned.
extension EventQueue {
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
    struct EnqueueReport: Sendable {
        /// For each event, in order: true when added, false when already queued, or the error that kept it out.
        var results: [Result<Bool, FileSystemError>]
        /// The counter rebuilt or the queue renumbered, said in words.
        var warnings: [String]
    }

    /// ``enqueue(contentsOf:)``, with the warnings for a counter that had to be rebuilt.
    ///
    /// The new events go into one format-2 file (one per `QueuedEventFile.maximumEvents`): one
    /// fsync for the file and one for the directory, whatever their number.
    func enqueueReporting(contentsOf events: [Event]) -> EnqueueReport {
        guard !events.isEmpty else { return EnqueueReport(results: [], warnings: []) }
        var warnings: [String] = []
        do throws(FileSystemError) {
            let results = try withLock { () throws(FileSystemError) in
                let selection = EnqueueSelection(events, queued: try queuedKeys(settingAsideDamagedFilesNamedFor: events))
                var results = selection.results
                if selection.fresh.isEmpty {
                    // An event found queued may be one whose writer died between its link and the
                    // directory's fsync: the caller is about to remove its receipt, so make sure the entry
                    // is on disk.
                    if selection.foundQueued { try FileSystem.syncDirectory(directory) }
                } else {
                    let first = try reserveSequenceNumbers(selection.fresh.count, warnings: &warnings)
                    let published = publish(events, selection.fresh, numberedFrom: first, results: &results)
                    if published || selection.foundQueued { syncDirectory(confirming: &results) }
                }
                return results.map { $0! }
            }
            return EnqueueReport(results: results, warnings: warnings)
        } catch {
            return EnqueueReport(results: events.map { _ in .failure(error) }, warnings: warnings)
        }
    }

    /// The (type, delivery id) of every queued event, taking format-1 files by their names. A corrupt
    /// format-1 file under one of `events`' names is read and set aside, as before format 2, when the
    /// event was written anew under that name (it now goes into the new file). Called under the lock.
    private func queuedKeys(settingAsideDamagedFilesNamedFor events: [Event]) throws(FileSystemError) -> Set<EventKey> {
        let names = Set(events.map { QueuedEvent.fileName(for: $0.type, $0.deliveryID) })
        let scan = try self.scan(oldFiles: .byName(except: names))
        for file in scan.damaged where names.contains(file.name) {
            _ = try? records.setAside(file.name, reason: file.reason)
        }
        return scan.keys
    }

    /// Writes the events at `fresh` (indices into `events`), numbered from `first` on, into new format-2
    /// files of at most `QueuedEventFile.maximumEvents`, each fsynced, the directory not: a file's events
    /// are marked added in `results`, or failed with the error that kept the file out.
    ///
    /// - Returns: whether any file was published (and so the directory needs its fsync).
    private func publish(
        _ events: [Event], _ fresh: [Int], numberedFrom first: Int64, results: inout [Result<Bool, FileSystemError>?]
    ) -> Bool {
        var published = false
        for start in stride(from: 0, to: fresh.count, by: QueuedEventFile.maximumEvents) {
            let part = start..<min(start + QueuedEventFile.maximumEvents, fresh.count)
            let batch = part.map { offset in QueuedEvent(event: events[fresh[offset]], sequence: first + Int64(offset)) }
            do throws(FileSystemError) {
                // The file is fsynced; the directory once, after the last. A new name: never refused.
                _ = try FileSystem.publishAtomically(
                    QueuedEventFile.encode(batch), to: records.path(of: QueuedEventFile.newFileName()), mode: 0o600,
                    syncDirectory: false)
                for offset in part { results[fresh[offset]] = .success(true) }
                published = true
            } catch {
                for offset in part { results[fresh[offset]] = .failure(error) }
            }
        }
        return published
    }

    /// Fsyncs the queue directory, which makes the published files (and the entries found queued)
    /// durable. When it fails, nothing is durable, so nothing is added (nor found): every result that was
    /// not already a failure becomes that error, and the caller keeps the receipts and tries again.
    private func syncDirectory(confirming results: inout [Result<Bool, FileSystemError>?]) {
        do throws(FileSystemError) {
            try FileSystem.syncDirectory(directory)
        } catch {
            for index in results.indices where (try? results[index]?.get()) != nil { results[index] = .failure(error) }
        }
    }
}
