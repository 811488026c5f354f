/// One upload in progress: the batches still to send, where it stands, and what it has done so far.
///
/// ``EventUploader/upload(_:sentLog:now:onAttempt:)`` posts a batch, classifies the answer
/// (``UploadResponse/classify(status:batchSize:)``), and hands the attempt to the step for that
/// outcome, which says what comes next. The order that makes a crash lose nothing lives in the steps: a
/// batch's events leave the queue only in ``sent(_:postedAt:sentAt:)``, after a 2xx (and, with a sent log, after its lines are on disk), and a refused batch is set aside
/// before it leaves the queue.
struct UploadRun {
    /// What comes after a step.
    enum Next {
        /// The next batch (the one at ``next``: after a send or a set-aside, or the first half of a split).
        case nextBatch
        /// The upload ends here; ``UploadReport/stopped`` says why.
        case stop
    }

    let queue: EventQueue
    let key: MobileKey
    let sentLog: SentLog?
    var report: UploadReport
    /// The batches of this run, in queue order; a split replaces one by its two halves.
    var pending: [EventBatch]
    /// The batch being sent.
    var next = 0
    /// Its number in this run, from 1.
    var batchNumber = 0
    /// Events were removed since the directory was last synced.
    var removedSinceSync = false

    /// The batch being sent.
    var batch: EventBatch { pending[next] }
    /// Its events.
    var events: [Event] { pending[next].events }

    /// A 2xx: the batch's events are logged (when a log is kept), then leave the queue.
    mutating func sent(_ line: inout UploadAttempt, postedAt: Timestamp, sentAt: Timestamp) -> Next {
        do {
            try sentLog?.append(events, postedAt: postedAt, sentAt: sentAt)
        } catch {
            line.detail = "sent, but cannot write the sent log: \(error) (its events stay queued, to be sent again)"
            report.stopped = .cannotLog("\(error)")
            return .stop
        }
        do {
            try queue.removeAcknowledged(events)
            removedSinceSync = true
        } catch {
            line.detail = "sent, but cannot remove its events from the queue: \(error) (they will be sent again)"
            report.stopped = .cannotRemove("\(error)")
            return .stop
        }
        report.sent += events.count
        if line.received != events.count {
            let answer = line.received.map { "{\"received\": \($0)}" } ?? "without {\"received\": N}"
            report.warnings.append("batch \(batchNumber): the API answered \(answer) for \(events.count) events")
        }
        next += 1
        return .nextBatch
    }

    /// 401 or 403: the key is wrong for every batch, so the upload stops with every event kept.
    mutating func refused(_ line: inout UploadAttempt) -> Next {
        let status = line.status ?? 0
        line.detail = "the API refused the mobile key (HTTP \(status)); every event stays queued"
        report.keyRefused = true
        report.stopped = .keyRefused(status: status)
        return .stop
    }

    /// 413 on two or more events: the batch is halved, and the halves are sent in turn.
    mutating func split(_ line: inout UploadAttempt) -> Next {
        let batch = events
        let half = batch.count / 2
        line.detail = "too large for the API: split into \(half) and \(batch.count - half) events"
        pending.replaceSubrange(
            next...next, with: [EventBatch(events: Array(batch[..<half])), EventBatch(events: Array(batch[half...]))])
        return .nextBatch
    }

    /// Any other 4xx: the batch is set aside with the answer's first bytes, and the rest go on.
    mutating func setAside(_ line: inout UploadAttempt, answer: [UInt8]) -> Next {
        let status = line.status ?? 0
        let reason = "POST /v1/events answered \(status): \(key.redacting(EventUploader.quote(answer)))"
        do {
            report.setAside += try queue.setAside(events, reason: reason)
            report.setAsideEvents += events.count
        } catch {
            line.detail = "refused (HTTP \(status)), and cannot be set aside: \(error)"
            report.stopped = .cannotSetAside("\(error)")
            return .stop
        }
        line.detail = "refused (HTTP \(status)); its events are set aside in \(queue.quarantineDirectory)"
        next += 1
        return .nextBatch
    }

    /// No answer, 408, 429 or 5xx, and the policy allows no more: the upload ends here.
    mutating func gaveUp(_ line: inout UploadAttempt, _ why: RetryPolicy.GiveUp) -> Next {
        line.gaveUp = why
        report.stopped = .gaveUp(batch: batchNumber, why)
        return .stop
    }

    /// The end of every run: the removals are made durable once, and what is left is counted as kept.
    mutating func finish() -> UploadReport {
        if removedSinceSync {
            do {
                try queue.syncRemovals()
            } catch {
                report.warnings.append(
                    "cannot sync the queue directory after removing sent events: \(error) (a power loss now could bring them back, to be sent again)"
                )
            }
        }
        report.kept = pending[next...].reduce(0) { $0 + $1.events.count }
        return report
    }
}
