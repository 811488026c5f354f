/// What became of the receipt for one notification.
public enum ReceiptStatus: Sendable, Equatable {
    /// No receipt was due: not routed, no delivery id, or no container.
    case none
    /// Written, durably.
    case stored
    /// A receipt for this delivery id was already pending; the first one is kept.
    case duplicate
    /// Not written because the container is full; the text says so.
    case dropped(String)
    /// Not written because of a file-system error or a lock held too long; the text names it.
    case failed(String)

    /// The status as one stable word: `stored`, `duplicate`, `none` or `failed` (a dropped
    /// receipt was not stored, so it reports as failed, with ``warning`` saying why).
    public var code: String {
        switch self {
        case .none: return "none"
        case .stored: return "stored"
        case .duplicate: return "duplicate"
        case .dropped, .failed: return "failed"
        }
    }

    /// What to add to the outcome's warnings, if anything.
    public var warning: String? {
        switch self {
        case .none, .stored, .duplicate: return nil
        case .dropped(let message), .failed(let message): return message
        }
    }
}
