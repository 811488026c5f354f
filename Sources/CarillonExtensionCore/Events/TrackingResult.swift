/// What one of the app's own sources of events — a tap (``OpenTracking``), `willPresent(userInfo:)`
/// (``PresentTracking``), the Notification Center scan — did to the queue for one notification.
///
/// The queue keeps one event per (type, delivery id) across every source, the extension's receipts
/// (through ``ReceiptDrain``) included: whichever is queued first wins and keeps its `at`.
public enum TrackingResult: Sendable, Equatable {
    /// A new event was queued.
    case queued(Event)
    /// A `received` event for this delivery was already queued (by a receipt, an earlier
    /// `willPresent` or a scan); it is kept, with its time.
    case alreadyQueued(DeliveryID)
    /// The payload has no valid Carillon stamp: nothing to report. The text says why.
    case notStamped(String)
    /// The queue could not be written (or its lock not had); nothing was queued.
    case failed(DeliveryID, FileSystemError)

    /// The delivery id, when the payload has one.
    public var deliveryID: DeliveryID? {
        switch self {
        case .queued(let event): return event.deliveryID
        case .alreadyQueued(let id), .failed(let id, _): return id
        case .notStamped: return nil
        }
    }

    /// The event now queued: the new one, or nil when nothing was added.
    public var event: Event? {
        if case .queued(let event) = self { return event }
        return nil
    }

    /// A `received` source's result as one stable word: `received`, `duplicate`, `none` or `failed`.
    public var code: String {
        switch self {
        case .queued: return "received"
        case .alreadyQueued: return "duplicate"
        case .notStamped: return "none"
        case .failed: return "failed"
        }
    }

    /// One enqueue result as this value.
    static func from(_ result: Result<Bool, FileSystemError>, event: Event) -> TrackingResult {
        switch result {
        case .success(true): return .queued(event)
        case .success(false): return .alreadyQueued(event.deliveryID)
        case .failure(let error): return .failed(event.deliveryID, error)
        }
    }
}
