/// What the API holds for one event the upload sent (SPEC §10). Pure: decided from the sent-log line,
/// the delivery as read and the API's clock rule (``ClockRule``), tested from a table.
package enum ReadbackVerdict: String, Sendable, Equatable, CaseIterable {
    /// The API holds the `at` that was sent.
    case recorded
    /// The clock rule applied: `at` was in the future or over 30 days old when the API received it, and
    /// the stored time is that moment (between the request leaving and its 2xx).
    case substituted
    /// An earlier report of the same type and delivery won (first report wins).
    case superseded
    /// The delivery is listed and its field is null: the API lost the event.
    case missing
    /// Another time is stored, not explained by the clock rule or an earlier report.
    case differs
    /// The delivery is not in the sampled list: unknowable from this endpoint.
    case notSampled = "not-sampled"

    /// Whether the verdict fails the check (exit 2).
    package var isFailure: Bool { self == .missing || self == .differs }

    /// The verdict for `line`, given the delivery as read (nil: not in the sampled list) and the log's
    /// earlier lines for the same type and delivery, in order.
    package static func judge(_ line: SentLogLine, delivery: DeliveryView?, earlier: [SentLogLine] = []) -> ReadbackVerdict {
        guard let delivery else { return .notSampled }
        guard let stored = delivery.stored(line.event.type) else { return .missing }
        if stored == line.event.at { return .recorded }
        if substitutes(line, stored) { return .substituted }
        if earlier.contains(where: { $0.event.at == stored || substitutes($0, stored) }) { return .superseded }
        // The API heard a receipt before this request left: someone reported it first.
        if line.event.type == .received, let heard = delivery.receivedReportedAt, heard < (line.postedAt ?? line.sentAt) {
            return .superseded
        }
        return .differs
    }

    /// Whether `stored` is the clock rule's substitute for `line`'s `at`: a moment of receipt between the
    /// request leaving (when the log says) and its 2xx, at which `at` was in the future or too old.
    static func substitutes(_ line: SentLogLine, _ stored: Timestamp) -> Bool {
        guard stored <= line.sentAt, line.postedAt.map({ $0 <= stored }) ?? true else { return false }
        return ClockRule.problem(at: line.event.at, now: stored) != nil
    }
}
