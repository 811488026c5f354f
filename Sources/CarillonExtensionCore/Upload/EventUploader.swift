/// The app's uploader: sends the queue's batches to `POST /v1/events` in queue order and removes events
/// only after a 2xx for their batch (SPEC §5).
///
/// Crash safety comes from the order of things: an event's file is removed only after the API
/// acknowledged its batch (``EventQueue/removeAcknowledged(_:)``) and, with a `SentLog`, after its
/// lines are on disk; the removals are made durable
/// with one directory fsync when the run ends. A kill at any instant leaves every event not yet
/// acknowledged in the queue; one acknowledged but not yet removed (or brought back by a power loss
/// before the sync) is sent again by the next run, which the API treats as a no-op.
///
/// Outcomes (`UploadResponse.classify(status:batchSize:)`): 2xx sent; a network error, a timeout,
/// 408, 429 or 5xx retried by the ``RetryPolicy``; 401/403 stop at once with every event kept; 413
/// splits the batch; any other 4xx sets the batch aside and the rest go on. When retries run out, or the
/// deadline passes, the upload stops and the rest stays queued.
///
/// One connection for the whole run (the `APIClient` keeps its handle), which also retries. Never prints: each attempt is
/// passed to the caller's closure as it happens.
public struct EventUploader: Sendable {
    /// The API's base URL; requests go to its `/v1/events`.
    public var endpoint: EventsEndpoint
    /// The mobile key, sent as `Authorization: Bearer` and nowhere else.
    public var key: MobileKey
    /// When a failed request is tried again.
    public var policy: RetryPolicy
    /// A PEM file of extra trusted certificate authorities (tests, staging); verification stays on.
    public var extraCAFile: String?
    /// App Transport Security for the API's connection.
    public var transportSecurity: TransportSecurity
    /// A whole number in `0 ... upper`, uniform: the backoff's jitter.
    public var random: @Sendable (_ upper: Int) -> Int
    /// Waits this long (the backoff).
    public var sleep: @Sendable (_ duration: Duration) -> Void

    /// An uploader; `random` and `sleep` default to the real jitter and waits (tests pass their own).
    public init(
        endpoint: EventsEndpoint, key: MobileKey, policy: RetryPolicy = .standard, extraCAFile: String? = nil,
        transportSecurity: TransportSecurity = .appTransportSecurity,
        random: @escaping @Sendable (_ upper: Int) -> Int = { Int.random(in: 0...max($0, 0)) },
        sleep: @escaping @Sendable (_ duration: Duration) -> Void = EventUploader.sleep
    ) {
        self.endpoint = endpoint
        self.key = key
        self.policy = policy
        self.extraCAFile = extraCAFile
        self.transportSecurity = transportSecurity
        self.random = random
        self.sleep = sleep
    }

    /// Waits `duration` on the calling thread (`Pause.sleep(for:)`: a signal does not cut it short).
    public static let sleep: @Sendable (Duration) -> Void = { duration in Pause.sleep(for: duration) }

    /// The answer's first bytes kept with a set-aside batch.
    static let quotedBodyBytes = 200

    /// Uploads what `queue` holds now (events queued meanwhile wait for the next run).
    ///
    /// - Parameters:
    ///   - queue: the queue whose pending events are sent and, once acknowledged, removed.
    ///   - now: this device's clock, for the clock rule's warnings.
    ///   - onAttempt: called after every request, in order.
    public func upload(_ queue: EventQueue, now: Timestamp = .now(), onAttempt: (UploadAttempt) -> Void) -> UploadReport {
        upload(queue, sentLog: nil, now: now, onAttempt: onAttempt)
    }

    /// Uploads what `queue` holds now, writing each acknowledged event to `sentLog` before it leaves the
    /// queue.
    ///
    /// - Parameters:
    ///   - queue: the queue whose pending events are sent and, once acknowledged, removed.
    ///   - sentLog: where each acknowledged event is written, durably, before it leaves the queue.
    ///   - now: this device's clock, for the clock rule's warnings.
    ///   - onAttempt: called after every request, in order.
    package func upload(
        _ queue: EventQueue, sentLog: SentLog?, now: Timestamp = .now(), onAttempt: (UploadAttempt) -> Void
    ) -> UploadReport {
        let start = ContinuousClock.now
        var report = UploadReport()
        report.warnings = queue.openingWarnings
        let contents: EventQueue.Contents
        do {
            contents = try queue.contents(now: now)
        } catch {
            report.stopped = .queueUnreadable("\(error)")
            return report
        }
        report.unreadable = contents.quarantined
        report.warnings += ClockRule.warnings(for: contents.events, now: now)
        let batches = EventBatch.batches(of: contents.events)
        guard !batches.isEmpty else { return report }
        guard
            let client = APIClient(
                endpoint: endpoint.api, key: key.key, transportSecurity: transportSecurity, extraCAFile: extraCAFile)
        else {
            report.stopped = .noHandle
            report.kept = contents.events.count
            return report
        }
        var run = UploadRun(queue: queue, key: key, sentLog: sentLog, report: report, pending: batches)
        while run.next < run.pending.count {
            run.batchNumber += 1
            let batch = run.batch
            let postedAt = Timestamp.now()
            let ending = client.exchange(
                .post, EventsEndpoint.path, body: Array(batch.requestBody.utf8), policy: policy, started: start,
                isRetryable: { UploadResponse.classify(status: $0.status, batchSize: batch.events.count) == .retry },
                random: random, sleep: sleep,
                onRetry: { attempt in
                    run.report.requests += 1
                    onAttempt(line(attempt, batch: run.batchNumber, events: batch.events.count))
                })
            let step: UploadRun.Next
            switch ending {
            case .deadlinePassed:
                run.report.stopped = .deadlinePassed(policy.deadline)
                return run.finish()
            case .gaveUp(let attempt, let why):
                run.report.requests += 1
                var line = line(attempt, batch: run.batchNumber, events: batch.events.count)
                step = run.gaveUp(&line, why)
                onAttempt(line)
            case .answered(let attempt):
                run.report.requests += 1
                var line = line(attempt, batch: run.batchNumber, events: batch.events.count)
                switch line.outcome {
                case .sent: step = run.sent(&line, postedAt: postedAt, sentAt: .now())
                case .refused: step = run.refused(&line)
                case .split: step = run.split(&line)
                case .setAside: step = run.setAside(&line, answer: attempt.response.body)
                case .retry: step = .stop  // not reached: a retryable answer ends as gaveUp
                }
                onAttempt(line)
            }
            if case .stop = step { return run.finish() }
        }
        return run.finish()
    }

    /// An attempt as the caller sees it.
    func line(_ attempt: APIClient.Attempt, batch: Int, events: Int) -> UploadAttempt {
        let response = attempt.response
        return UploadAttempt(
            batch: batch, events: events, attempt: attempt.number, status: response.status,
            outcome: UploadResponse.classify(status: response.status, batchSize: events),
            received: response.status == nil ? nil : UploadResponse.received(response.body), retryAfter: attempt.wait,
            elapsed: attempt.elapsed, detail: response.failure.map(key.redacting))
    }

    /// The answer's first bytes as one printable line (controls and non-UTF-8 as `?`).
    static func quote(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(quotedBodyBytes), as: UTF8.self)
        let line = String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "?" : $0 }))
        return line.isEmpty ? "(empty body)" : line + (body.count > quotedBodyBytes ? "…" : "")
    }
}
