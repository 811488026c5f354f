/// One `POST /v1/events` request of an upload, as the tool prints it (one JSON line each).
public struct UploadAttempt: Sendable, Equatable {
    /// The batch's number in this run, from 1; a split's halves take the next numbers.
    public var batch: Int
    /// Events in the request.
    public var events: Int
    /// The request's number for this batch, from 1.
    public var attempt: Int
    /// The HTTP status, or nil when no response came.
    public var status: Int?
    /// What the response meant for the batch.
    public var outcome: UploadOutcome
    /// N from the answer's `{"received": N}`, or nil.
    public var received: Int?
    /// The wait before this batch's next attempt (the server's `Retry-After` or the backoff), or nil
    /// when no retry follows.
    public var retryAfter: Duration?
    /// How long the request took.
    public var elapsed: Duration
    /// Why, in words, when it was not sent: the network error, the refusal, the set-aside; the last
    /// failure when no retry follows.
    public var detail: String?
    /// Why no retry follows this attempt, when the retry policy ended the upload here.
    public var gaveUp: RetryPolicy.GiveUp? = nil
}
