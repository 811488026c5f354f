import Dispatch
import Synchronization

/// The receipts one process publishes at the same moment, committed together as a database's group
/// commit does: one holder of the directory's lock links them all, and one fsync of the directory makes
/// them all durable.
///
/// A writer stages its receipt first (a whole, fsynced temporary file: ``FileSystem/stage(_:in:mode:)``),
/// then calls ``commit(_:)``. If no round is linking it leads one: it takes every receipt waiting at that
/// moment, holds the `flock` once for them all (one listing for the count, then each one's check and
/// `link`), releases it, fsyncs the directory once, and hands each writer its result. Writers arriving
/// while a round links wait for its links to end (not its fsync); the first of them then leads the next
/// round, which covers them all, and whose fsync overlaps the one before. Nobody's result is given
/// before the fsync that follows its `link` has returned.
///
/// Why each receipt is still whole or absent, and durable before its payload goes on:
/// - each receipt's own file is fsynced (by its writer, before it joins a round) before it is linked, so
///   its final name never points at data that is not on disk. Those fsyncs are not moved into the round:
///   they would then run one after another, whereas the writers' concurrent fsyncs are shared by the
///   file system's journal already (eight concurrent writers finish theirs in one commit);
/// - a round's `link`s all return before its directory fsync is called, and POSIX's fsync of a directory
///   makes durable the entries it holds when called: once it returns, every receipt of the round is on
///   disk under its final name. A kill before that leaves a receipt linked but perhaps not durable; its
///   writer was still waiting in ``commit(_:)``, so its payload's image was not used;
/// - a failed fsync fails every receipt of its round (after an `EIO` from `fsync`, a retry may report
///   success without the data being on disk, so it is not retried for them).
///
/// The group is within one process. The lock still guards the count and the links against other
/// processes' writers and the app's drain; each process syncs its own rounds.
final class ReceiptCommitGroup: Sendable {
    /// One staged receipt waiting for its round.
    final class Request: Sendable {
        let id: DeliveryID
        let path: String
        let staged: FileSystem.StagedFile
        let lockDeadline: ContinuousClock.Instant
        /// Its result once its round is over; nil while it waits, and when it is woken to lead.
        fileprivate let result = Mutex<ReceiptStatus?>(nil)
        fileprivate let woken = DispatchSemaphore(value: 0)

        init(id: DeliveryID, path: String, staged: FileSystem.StagedFile, lockDeadline: ContinuousClock.Instant) {
            self.id = id
            self.path = path
            self.staged = staged
            self.lockDeadline = lockDeadline
        }
    }

    private struct State {
        var waiting: [Request] = []
        var leading = false
    }

    private let store: ReceiptStore
    private let state = Mutex(State())

    private init(_ store: ReceiptStore) { self.store = store }

    private static let groups = Mutex<[String: ReceiptCommitGroup]>([:])

    /// The process's group for `store`'s directory (one per path spelling, made on first use).
    static func shared(for store: ReceiptStore) -> ReceiptCommitGroup {
        groups.withLock { groups in
            if let group = groups[store.directory] { return group }
            let group = ReceiptCommitGroup(store)
            groups[store.directory] = group
            return group
        }
    }

    /// Publishes `request`'s staged receipt in a round of this process's writers, returning once it is
    /// durable (or not stored, and why).
    func commit(_ request: Request) -> ReceiptStatus {
        let leads = state.withLock { state -> Bool in
            state.waiting.append(request)
            if state.leading { return false }
            state.leading = true
            return true
        }
        if !leads {
            request.woken.wait()
            if let result = request.result.withLock({ $0 }) { return result }
            // Woken with no result: the round before has linked, and this writer leads the next.
        }
        let round = state.withLock { state -> [Request] in
            defer { state.waiting = [] }
            return state.waiting
        }
        var results = link(round)
        // The next round may link while this one's fsync runs: their fsyncs then overlap, and the file
        // system's journal shares them, instead of the next round waiting for this one's to end.
        let next = state.withLock { state -> Request? in
            guard let first = state.waiting.first else {
                state.leading = false
                return nil
            }
            return first
        }
        next?.woken.signal()
        sync(round, &results)
        for (member, result) in zip(round, results) where member !== request {
            member.result.withLock { $0 = result }
            member.woken.signal()
        }
        return results[round.firstIndex { $0 === request }!]
    }

    /// A round's links: the lock once, the count once, each receipt's check and `link`. A receipt without a
    /// result here was never reached (the lock could not be had).
    private func link(_ round: [Request]) -> [ReceiptStatus] {
        var results = [ReceiptStatus?](repeating: nil, count: round.count)
        let deadline = round.map(\.lockDeadline).min() ?? .now
        do {
            try store.records.withLock(until: deadline) { () throws(FileSystemError) in
                var pending = try ReceiptStore.countPendingReceipts(in: store.directory)
                for (index, request) in round.enumerated() {
                    do throws(FileSystemError) {
                        results[index] = try publish(request, pending: &pending)
                    } catch {
                        results[index] = .failed("cannot store the receipt for \(request.id): \(error)")
                    }
                }
            }
        } catch {
            for index in round.indices where results[index] == nil {
                results[index] = .failed("cannot store the receipt for \(round[index].id): \(error)")
            }
        }
        return results.map { $0 ?? .failed("cannot store the receipt: no result") }
    }

    /// A round's one directory fsync: durable before any writer goes on, every entry linked in the round
    /// is on disk once it returns. If it fails, every receipt the round stored fails with it.
    private func sync(_ round: [Request], _ results: inout [ReceiptStatus]) {
        guard results.contains(.stored) else { return }
        do throws(FileSystemError) { try FileSystem.syncDirectory(store.directory) } catch {
            for index in round.indices where results[index] == .stored {
                results[index] = .failed("cannot store the receipt for \(round[index].id): \(error)")
            }
        }
    }

    /// One receipt's check and link, under the lock; `pending` counts the receipts in the directory.
    private func publish(_ request: Request, pending: inout Int) throws(FileSystemError) -> ReceiptStatus {
        // Checked before the capacity, so a repeat of a pending receipt is a duplicate even when full.
        if let found = try store.existing(request.path) { return found }
        if pending >= ReceiptStore.capacity {
            return .dropped(
                "container already holds \(pending) pending receipts; receipt for \(request.id) dropped "
                    + "(the app has not drained them yet)")
        }
        switch try request.staged.publish(to: request.path) {
        case .published:
            pending += 1
            return .stored
        case .alreadyExists: return try store.existing(request.path) ?? .duplicate
        }
    }
}
