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
    /// Why the upload stopped before the queue was empty; nil when every batch was dealt with.
    public var stopped: UploadStop?
    /// True when the API answered 401 or 403.
    public var keyRefused = false
    /// Odd but not fatal: a clock-rule event, a `received` count that disagrees.
    public var warnings: [String] = []

    /// Every event sent, none set aside, nothing unreadable.
    public var isClean: Bool { stopped == nil && setAside.isEmpty && unreadable.isEmpty && kept == 0 }
}

/// Why an upload stopped before the queue was empty: a value, worded by whoever shows it.
public enum UploadStop: Sendable, Equatable {
    /// The queue could not be read (the file system's words).
    case queueUnreadable(String)
    /// libcurl could not create a handle (`curl_easy_init` failed).
    case noHandle
    /// The upload's deadline passed before the next request could start.
    case deadlinePassed(Duration)
    /// The API answered 401 or 403: the key was refused.
    case keyRefused(status: Int)
    /// A batch (its number in this run) was retried until the policy said no more.
    case gaveUp(batch: Int, RetryPolicy.GiveUp)
    /// Sent events could not be removed from the queue (they will be sent again).
    case cannotRemove(String)
    /// A refused batch could not be set aside.
    case cannotSetAside(String)
    /// Acknowledged events could not be written to the sent log (they stay queued, to be sent again).
    case cannotLog(String)
}
