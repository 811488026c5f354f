/// The app's launch step: turns the receipts the extension left in the shared container into
/// `received` events in the app's queue.
///
/// Order of operations: read the receipts, queue all their events durably (one queue file), and only
/// then remove the receipts, syncing their directory once. A crash in between leaves a receipt to be
/// read again by the next drain, and the queue's one event per (type, delivery id) keeps that from
/// becoming a duplicate. Safe while extensions are writing (they publish whole files under new names;
/// in-progress `.tmp-*` files are skipped) and while another drain runs (whichever queues an event
/// first wins; the other finds it already queued; a file one of them has already removed or set aside
/// is simply skipped).
///
/// Only regular files are read, never through a link, and never in a way that can block (a FIFO named
/// like a receipt is set aside, as is one swapped in after the listing). Every other entry that is not
/// a receipt — a name that is not UTF-8, a directory, a link — is set aside and reported, so nothing
/// lingers uncounted.
public enum ReceiptDrain {
    /// Receipts queued per lock of the queue: the container's capacity, so that a drain is one queue
    /// file and a handful of fsyncs (the file, the counter, the directories), not a few per receipt. A
    /// container over its capacity (filled by hand) is drained in rounds of this many, which bounds the
    /// memory of one file and the time the queue is held.
    static let chunkSize = ReceiptStore.capacity

    /// Moves every whole receipt from `container` into `queue` as a `received` event whose `at` is the
    /// receipt's time, oldest first; sets aside anything that is not a whole receipt.
    ///
    /// Never throws: every problem is a line of the report, and no bad file keeps the others from being
    /// drained.
    /// - Parameters:
    ///   - container: the shared container (the App Group) the extension writes receipts to.
    ///   - queue: the app's event queue the `received` events go to.
    ///   - now: the current time, to recognise temporary files abandoned over an hour ago.
    public static func drain(container: String, into queue: EventQueue, now: Timestamp = .now()) -> DrainReport {
        let directory = ReceiptStore.directory(inContainer: container)
        let records = RecordDirectory(directory)
        var report = DrainReport()
        do {
            // No directory means the extension never wrote a receipt: nothing to do, not a failure.
            // Anything else in its place is named: the drain cannot do its work there.
            let kind = try records.kind()
            if kind == .missing { return report }
            report.warnings += try records.prepare(create: false)
        } catch {
            report.failures.append("cannot drain \(Quoting.display(directory)): \(error.reason)")
            return report
        }

        let entries: [DirectoryEntry]
        do {
            entries = try records.entries()
        } catch {
            report.failures.append("cannot list receipts: \(error)")
            return report
        }

        var receipts = readReceipts(entries, in: records, now: now, report: &report)

        // Queue order should follow the time the notifications arrived, not the ids' alphabetical order.
        receipts.sort { ($0.receipt.receivedAt, $0.receipt.deliveryID) < ($1.receipt.receivedAt, $1.receipt.deliveryID) }

        let removedAny = queueThenRemove(receipts, into: queue, report: &report)
        if removedAny {
            // Not needed for correctness (a removal lost to a crash is re-read and found queued), but it
            // frees the extension's capacity for good.
            do { try FileSystem.syncDirectory(directory) } catch { report.failures.append("\(error)") }
        }
        return report
    }

    /// The whole receipts among `entries`, with their paths; what is not one is removed (an abandoned
    /// temporary file), set aside (a corrupt file) or reported.
    private static func readReceipts(
        _ entries: [DirectoryEntry], in records: RecordDirectory, now: Timestamp, report: inout DrainReport
    ) -> [(receipt: Receipt, path: String)] {
        var receipts: [(receipt: Receipt, path: String)] = []
        for entry in entries {
            let path = records.path(of: entry.name)
            switch classify(entry, in: records, now: now) {
            case .skip:
                continue
            case .removedTemporary:
                report.removedTemporaryFiles.append(path)
            case .receipt(let receipt):
                receipts.append((receipt, path))
            case .failure(let message):
                report.failures.append(message)
            case .corrupt(let reason):
                do {
                    if let file = try records.setAside(entry.name, reason: reason) { report.quarantined.append(file) }
                } catch {
                    report.failures.append("cannot set aside \(Quoting.display(path)) (\(reason)): \(error)")
                }
            }
        }
        return receipts
    }

    /// Queues the receipts' events a chunk at a time, then removes each receipt whose event is queued
    /// (durable by then); a lock that cannot be had keeps the rest for the next drain. Whether any
    /// receipt was removed.
    private static func queueThenRemove(
        _ receipts: [(receipt: Receipt, path: String)], into queue: EventQueue, report: inout DrainReport
    ) -> Bool {
        var removedAny = false
        for start in stride(from: 0, to: receipts.count, by: chunkSize) {
            let chunk = receipts[start..<min(start + chunkSize, receipts.count)]
            let events = chunk.map { Event(type: .received, deliveryID: $0.receipt.deliveryID, at: $0.receipt.receivedAt) }
            // When enqueue returns, every event it added or found is durable: only now may receipts go.
            let enqueued = queue.enqueueReporting(contentsOf: events)
            report.warnings += enqueued.warnings
            if case .failure(let error)? = enqueued.results.first, error.isLockTimeout {
                // The wait is bounded per drain, not per chunk: the rest stays for the next drain.
                report.failures.append(
                    "\(receipts.count - start) receipts kept for the next drain: cannot queue their events: \(error)")
                break
            }
            // Only the receipts whose event is queued (durable by now) are removed, all at once.
            let queued = zip(chunk, enqueued.results).compactMap { receipt, result -> String? in
                if case .success = result { return receipt.path }
                return nil
            }
            let removed = FileSystem.removeFiles(queued)
            var removal = removed.makeIterator()
            for ((receipt, path), (event, result)) in zip(chunk, zip(events, enqueued.results)) {
                switch result {
                case .success(true): report.queued.append(event)
                case .success(false): report.alreadyQueued.append(receipt.deliveryID)
                case .failure(let error):
                    report.failures.append("cannot queue the received event for \(receipt.deliveryID) (receipt kept): \(error)")
                    continue
                }
                if let error = removal.next() ?? nil {
                    // The event is queued; the receipt will be read again and found already queued.
                    report.failures.append("cannot remove the drained receipt \(Quoting.display(path)): \(error)")
                } else {
                    removedAny = true
                }
            }
        }
        return removedAny
    }

    private enum Entry {
        case skip
        case removedTemporary
        case receipt(Receipt)
        case corrupt(String)
        case failure(String)
    }

    /// What one directory entry is. Reads only regular files, and at most a receipt's maximum size.
    private static func classify(_ entry: DirectoryEntry, in records: RecordDirectory, now: Timestamp) -> Entry {
        let name = entry.name
        let path = records.path(of: name)
        if name.hasPrefix(StaleFiles.temporaryPrefix) {
            return StaleFiles.removeIfStale(path, now: now) ? .removedTemporary : .skip
        }
        if name == RecordDirectory.lockName || name == RecordDirectory.quarantineName { return .skip }
        // Checked first: every other rule below speaks of the name's text.
        guard entry.isUTF8 else { return .corrupt("the file name is not valid UTF-8") }
        // Other hidden files are not receipts and not the drain's to judge (a writer may add some).
        if name.hasPrefix(".") { return .skip }

        var kind = entry.kind
        if kind == nil {
            do { kind = try FileSystem.kind(path) } catch {
                return .failure("cannot inspect \(Quoting.display(path)): \(error.reason)")
            }
        }
        switch kind {
        case .missing?: return .skip
        case .regularFile?: break
        case let other?: return .corrupt("not a regular file but \(other.description)")
        case nil: return .skip
        }
        guard name.hasSuffix(Receipt.fileExtension) else {
            return .corrupt("not a receipt file name (expected <delivery-id>\(Receipt.fileExtension))")
        }

        // No link followed and no wait: a file swapped for a FIFO or a link since the listing is refused
        // on the descriptor.
        let read = records.readRecord(name, maximumBytes: Receipt.maximumFileBytes) { (bytes) throws(RecordError) in
            try Receipt.decode(bytes, fileName: name)
        }
        switch read {
        case .record(let receipt): return .receipt(receipt)
        case .gone: return .skip  // another drain took it
        case .unreadable(let error): return .failure("cannot read \(Quoting.display(path)) (kept for the next drain): \(error.reason)")
        case .damaged(let reason): return .corrupt(reason)
        }
    }
}

/// What a drain did.
public struct DrainReport: Sendable, Equatable {
    /// Events added to the queue, in queue order.
    public var queued: [Event] = []
    /// Receipts whose `received` event was already queued (a re-read after a crash, or a concurrent
    /// drain's); their receipts were removed all the same.
    public var alreadyQueued: [DeliveryID] = []
    /// Files set aside into `CarillonReceipts/Quarantine`, with why.
    public var quarantined: [QuarantinedFile] = []
    /// Abandoned temporary files (over an hour old) that were removed.
    public var removedTemporaryFiles: [String] = []
    /// What was put right on the way: a directory mode tightened, the queue's counter rebuilt.
    public var warnings: [String] = []
    /// Problems that kept something from being done; what they concern stays for the next drain.
    public var failures: [String] = []

    /// An empty report: nothing drained yet.
    public init() {}

    /// True when nothing was set aside and nothing failed.
    public var isClean: Bool { quarantined.isEmpty && failures.isEmpty }
}
