/// The app's uploader: sends the queue's batches to `POST /v1/events` in queue order and removes events
/// only after a 2xx for their batch (SPEC §5).
///
/// Crash safety comes from the order of things: an event's file is removed only after the API
/// acknowledged its batch (``EventQueue/removeAcknowledged(_:)``), and the removals are made durable
/// with one directory fsync when the run ends. A kill at any instant leaves every event not yet
/// acknowledged in the queue; one acknowledged but not yet removed (or brought back by a power loss
/// before the sync) is sent again by the next run, which the API treats as a no-op.
///
/// Outcomes (`UploadResponse.classify(status:batchSize:)`): 2xx sent; a network error, a timeout,
/// 408, 429 or 5xx retried by the ``RetryPolicy``; 401/403 stop at once with every event kept; 413
/// splits the batch; any other 4xx sets the batch aside and the rest go on. When retries run out, or the
/// deadline passes, the upload stops and the rest stays queued.
///
/// One connection for the whole run (`CurlPoster` keeps its handle). Never prints: each attempt is
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
        let start = ContinuousClock.now
        func elapsed() -> Duration { ContinuousClock.now - start }
        var report = UploadReport()
        report.warnings = queue.openingWarnings
        let contents: EventQueue.Contents
        do {
            contents = try queue.contents(now: now)
        } catch {
            report.stopped = "cannot read the queue: \(error)"
            return report
        }
        report.unreadable = contents.quarantined
        report.warnings += ClockRule.warnings(for: contents.events, now: now)
        let batches = EventBatch.batches(of: contents.events).map(\.events)
        guard !batches.isEmpty else { return report }
        guard let poster = CurlPoster(transportSecurity: transportSecurity, extraCAFile: extraCAFile) else {
            report.stopped = "cannot create a libcurl handle (curl_easy_init failed)"
            report.kept = contents.events.count
            return report
        }
        let headers = [key.authorizationHeader, "Content-Type: application/json", "Accept: application/json"]
        var run = UploadRun(queue: queue, key: key, report: report, pending: batches)
        var attempt = 0
        while run.next < run.pending.count {
            if attempt == 0 { run.batchNumber += 1 }
            attempt += 1
            let left = policy.deadline - elapsed()
            guard left > .zero else {
                run.report.stopped = "the \(RetryPolicy.seconds(policy.deadline)) s deadline passed (--deadline)"
                break
            }
            let events = run.events
            let requestStart = ContinuousClock.now
            let response = poster.post(
                url: endpoint.url, host: endpoint.host, headers: headers, body: Array(EventBatch(events: events).requestBody.utf8),
                timeout: left)
            let took = ContinuousClock.now - requestStart
            run.report.requests += 1
            let outcome = UploadResponse.classify(status: response.status, batchSize: events.count)
            var line = UploadAttempt(
                batch: run.batchNumber, events: events.count, attempt: attempt, status: response.status, outcome: outcome,
                received: response.status == nil ? nil : UploadResponse.received(response.body), retryAfter: nil, elapsed: took,
                detail: response.failure.map(key.redacting))
            let step: UploadRun.Next
            switch outcome {
            case .sent: step = run.sent(&line)
            case .refused: step = run.refused(&line)
            case .split: step = run.split(&line)
            case .setAside: step = run.setAside(&line, answer: response.body)
            case .retry:
                let retryAfter = response.retryAfter.flatMap { RetryAfter.wait($0, now: .now()) }
                step = run.retry(
                    &line,
                    decision: policy.decide(
                        failedAttempt: attempt, retryAfter: retryAfter, elapsed: elapsed(), random: random))
            }
            onAttempt(line)
            switch step {
            case .nextBatch: attempt = 0
            case .retry(let wait): sleep(wait)
            case .stop: return run.finish()
            }
        }
        return run.finish()
    }

    /// The answer's first bytes as one printable line (controls and non-UTF-8 as `?`).
    static func quote(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(quotedBodyBytes), as: UTF8.self)
        let line = String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "?" : $0 }))
        return line.isEmpty ? "(empty body)" : line + (body.count > quotedBodyBytes ? "…" : "")
    }
}

extension MobileKey {
    /// `text` with the key, should a server echo it, replaced by `<mobile key>`.
    func redacting(_ text: String) -> String {
        let secret = String(authorizationHeader.dropFirst("Authorization: Bearer ".count))
        return text.replacing(secret, with: "<mobile key>")
    }
}
