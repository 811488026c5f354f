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
    /// Why, in words, when it was not sent: the network error, the refusal, why no retry follows.
    public var detail: String?
}

/// What an upload did, for the summary and the exit status.
public struct UploadReport: Sendable {
    /// Requests made.
    public var requests = 0
    /// Events the API acknowledged with a 2xx (and so removed from the queue).
    public var sent = 0
    /// Queue files set aside (whole, or the refused part of one) because the API refused their batch for good.
    public var setAside: [QuarantinedFile] = []
    /// The events in them.
    public var setAsideEvents = 0
    /// Corrupt queue files set aside while reading the queue.
    public var unreadable: [QuarantinedFile] = []
    /// Events still queued when the upload ended (to be sent by a later run).
    public var kept = 0
    /// Why the upload stopped before the queue was empty: the key refused, retries used up, a file
    /// error. Nil when every batch was dealt with.
    public var stopped: String?
    /// True when the API answered 401 or 403.
    public var keyRefused = false
    /// Odd but not fatal: a clock-rule event, a `received` count that disagrees.
    public var warnings: [String] = []

    /// Every event sent, none set aside, nothing unreadable.
    public var isClean: Bool { stopped == nil && setAside.isEmpty && unreadable.isEmpty && kept == 0 }
}
