@_spi(Tooling) import CarillonExtensionCore

/// The tool's words for what the API client and the uploader return as values: the retry policy's
/// give-ups and an upload's stop, with the options that set each limit.
enum APIWords {
    /// Why no retry follows, naming the option that sets the limit.
    static func giveUp(_ why: RetryPolicy.GiveUp) -> String {
        switch why {
        case .attemptsMade(let count):
            return "\(count) attempt\(count == 1 ? "" : "s") made (--max-attempts)"
        case .waitPassesDeadline(let wait, let serverAsked, let deadline):
            let milliseconds = wait.wholeMilliseconds
            let what = serverAsked ? "the server's Retry-After (\(milliseconds) ms)" : "the next backoff (\(milliseconds) ms)"
            return "\(what) would pass the \(RetryPolicy.seconds(deadline)) s deadline (--deadline)"
        }
    }

    /// The deadline passing before a request could start.
    static func deadlinePassed(_ deadline: Duration) -> String {
        "the \(RetryPolicy.seconds(deadline)) s deadline passed (--deadline)"
    }

    /// Why an upload stopped.
    static func stop(_ stop: UploadStop) -> String {
        switch stop {
        case .queueUnreadable(let error): return "cannot read the queue: \(error)"
        case .noHandle: return "cannot create a libcurl handle (curl_easy_init failed)"
        case .deadlinePassed(let deadline): return deadlinePassed(deadline)
        case .keyRefused(let status): return "the API refused the mobile key (HTTP \(status))"
        case .gaveUp(let batch, let why): return "gave up on batch \(batch): \(giveUp(why))"
        case .cannotRemove(let error): return "cannot remove sent events from the queue: \(error)"
        case .cannotSetAside(let error): return "cannot set a refused batch aside: \(error)"
        case .cannotLog(let error): return "cannot write the sent log (--sent-log): \(error); its events stay queued"
        }
    }

    /// An attempt's detail: the give-up in words before the last failure, or the detail as it is.
    static func detail(_ attempt: UploadAttempt) -> String? {
        guard let why = attempt.gaveUp else { return attempt.detail }
        let failure = attempt.detail.map { "; last: \($0)" } ?? " (HTTP \(attempt.status ?? 0))"
        return "gave up: \(giveUp(why))\(failure)"
    }
}
