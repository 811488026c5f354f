/// What one `POST /v1/events` attempt's answer means for its batch (SPEC §5). Pure, tested from a table.
public enum UploadOutcome: String, Sendable, Equatable, CaseIterable {
    /// 2xx: the batch's events leave the queue.
    case sent
    /// A network error, a timeout, 408, 429 or 5xx (and anything unexpected: 1xx, 3xx): tried again
    /// within the retry policy; the events stay queued meanwhile.
    case retry
    /// 401 or 403: the key was refused; the upload stops with every event kept.
    case refused
    /// 413 on a batch of two or more: the batch is split in halves, each sent in its turn.
    case split
    /// Any other 4xx (and 413 on a single event, which cannot be split): the batch's events are set aside
    /// into the queue's `Quarantine/` with the status and the answer's first bytes, and the rest go on.
    case setAside = "set-aside"
}

@_spi(Tooling) public enum UploadResponse {
    /// The outcome of an attempt: `status` nil when no response came (a network error or a timeout).
    public static func classify(status: Int?, batchSize: Int) -> UploadOutcome {
        guard let status else { return .retry }
        switch status {
        case 200...299: return .sent
        case 401, 403: return .refused
        case 413: return batchSize > 1 ? .split : .setAside
        case 408, 429: return .retry
        case 400...499: return .setAside
        // 5xx, and what a correct server never sends here (1xx, 3xx: no redirect is followed for a POST):
        // keep the events and let the policy bound the retries.
        default: return .retry
        }
    }

    /// N from a `{"received": N}` answer, or nil when the body is not that shape.
    public static func received(_ body: [UInt8]) -> Int? {
        guard case .object(let members)? = try? JSONParser.parse(body),
            let value = members.first(where: { $0.key == "received" })?.value,
            case .number(let text) = value
        else { return nil }
        return Int(text)
    }
}
