@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse upload`: the app's uploader — sends the queue's batches to the events API.
enum UploadCommand: Command {
    static let name = "upload"
    static let summary = "Send the queued events to POST /v1/events, removing each batch once acknowledged."

    /// The environment variable that may hold the mobile key instead of `--key-file`.
    static let keyVariable = "CARILLON_MOBILE_KEY"

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue.")
        static let endpoint = Option.requiredText(
            "--endpoint", "URL", help: "The API's base URL (https only); requests go to URL/v1/events.")
        static let keyFile = Option.path(
            "--key-file", "FILE", help: "A file whose first line is the mobile key (else $CARILLON_MOBILE_KEY).")
        static let caFile = Option.path(
            "--ca-file", "PEM", help: "Extra certificate authorities to trust (tests, staging). Verification stays on.")
        static let maxAttempts = Option.positiveInteger(
            "--max-attempts", default: RetryPolicy.standard.maximumAttempts, maximum: 100,
            help: "Requests per batch at most, the first included.")
        static let deadline = Option.duration(
            "--deadline", default: RetryPolicy.standard.deadline, help: "Wall time for the whole upload, every wait included.")
        static let sentLog = Option.path(
            "--sent-log", "FILE",
            help: "Append a JSON line per event the API acknowledged (type, delivery_id, at, posted_at, sent_at), durably.")
    }

    static let options: [OptionSpec] = [
        Options.queue.spec, Options.endpoint.spec, Options.keyFile.spec, Options.caFile.spec, Options.maxAttempts.spec,
        Options.deadline.spec, Options.sentLog.spec,
    ]

    static let arguments: [ArgumentSpec] = []

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every queued event was sent."),
        ExitStatus(
            code: 1,
            meaning:
                "Events stay queued (the key refused, retries used up, the deadline passed), or a batch or a corrupt file was set aside."),
        ExitStatus(
            code: 64,
            meaning:
                "Bad usage: no key, an http endpoint, an unreadable --key-file or --ca-file, a --queue that is not a directory or not writable."
        ),
    ]

    static var overview: String {
        let policy = RetryPolicy.standard
        return """
            Does what the app's uploader does: sends the queue's pending events to URL/v1/events in batches
            of at most 100, in queue order, each body exactly what 'batches' prints, with
            Authorization: Bearer <mobile key>, all on one connection. A batch's events leave the queue only
            after a 2xx for it (the removals synced to disk once, when the run ends); a kill at any moment
            loses nothing (a batch may be sent again, which the API ignores).

            The mobile key is the first line of --key-file, or $\(keyVariable). It is sent in the
            Authorization header and nowhere else: never printed, never written to the queue.

              2xx                        sent: the batch's events are removed
              no answer (network error,  retry: after a random wait in 0 ... min(\(RetryPolicy.seconds(policy.cap)) s, \(RetryPolicy.seconds(policy.base)) s x 2^(n-1))
              timeout), 408, 429, 5xx    after the n-th failure (full jitter), or the server's
                                         Retry-After (seconds or an HTTP date) instead
              401, 403                   refused: the key was refused; stop, every event kept
              413                        split: the batch is halved and each half sent
              other 4xx                  set-aside: moved to DIR/Quarantine/ with the status and
                                         the answer's first bytes; the rest go on
            Retries stop after --max-attempts requests for a batch, or when the next wait would pass
            --deadline: the rest stays queued for the next run.

            Prints one JSON line per request: batch, events, attempt, status (null: no response), outcome
            (sent, retry, refused, split, set-aside), received (the answer's N, or null), retry_after_ms
            (the wait before the next attempt, or null), elapsed_ms, detail (why, or null). A summary and
            warnings go to standard error: events whose "at" the API will replace (in the future, or more
            than 30 days old), and a {"received": N} that is not the batch's size.

            With --sent-log FILE, each acknowledged batch's events are appended to FILE, one JSON line each
            ({"type","delivery_id","at","posted_at","sent_at"}: posted_at when the request left, sent_at
            when the 2xx arrived), written and fsynced before they leave the queue; 'readback --sent-log'
            checks them against what the API stored. A torn last line left by a crash is cut first.
            """
    }

    /// The queue, the endpoint, the key, the trust and the retry policy, checked.
    struct Plan {
        var queue: String
        var endpoint: EventsEndpoint
        var key: MobileKey
        var caFile: String?
        var policy: RetryPolicy
        var sentLog: String?
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        try expectNoArguments(arguments)
        let queue = try Options.queue.read(arguments)
        // The sent log is appended to: never to the key, the CA file or the queue.
        let inputs = [(Options.keyFile, try Options.keyFile.read(arguments)), (Options.caFile, try Options.caFile.read(arguments))]
        if let log = try Options.sentLog.read(arguments),
            let clash = OutputClash.problem(
                outputs: [.init("option '\(Options.sentLog.spec.name)'", log)],
                inputs: inputs.compactMap { option, path in path.map { .init("option '\(option.spec.name)'", $0) } }
                    + [.init("option '\(Options.queue.spec.name)'", queue)])
        {
            throw UsageError(message: clash)
        }
        let endpointText = try Options.endpoint.read(arguments)
        let endpoint: EventsEndpoint
        do {
            endpoint = try EventsEndpoint(validating: endpointText)
        } catch {
            throw UsageError(message: "--endpoint: \(error.detail)")
        }
        let key = try readKey(try Options.keyFile.read(arguments))
        let caFile = try Options.caFile.read(arguments)
        if let caFile, let problem = CAFileCheck.problem(caFile) {
            throw UsageError(message: "--ca-file '\(Quoting.display(caFile))': \(problem)")
        }
        let policy = RetryPolicy(
            maximumAttempts: try Options.maxAttempts.read(arguments), deadline: try Options.deadline.read(arguments))
        try DirectoryCheck.check(queue, option: Options.queue.spec.name, access: .writeIfPresent)
        return Plan(
            queue: queue, endpoint: endpoint, key: key, caFile: caFile, policy: policy, sentLog: try Options.sentLog.read(arguments))
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard FileSystem.isDirectory(plan.queue) else {
            io.standardError.line("\(CarillonTool.name): \(Quoting.display(plan.queue)): no such queue directory")
            return CarillonTool.exitDataError
        }
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        var sentLog: SentLog?
        if let logPath = plan.sentLog {
            do {
                sentLog = try SentLog(appendingTo: logPath)
            } catch {
                io.standardError.line("\(CarillonTool.name): --sent-log \(Quoting.display(logPath)): \(error)")
                return CarillonTool.exitDataError
            }
            if let cut = sentLog?.cutBytes, cut > 0 {
                io.standardError.line(
                    "\(CarillonTool.name): warning: \(Quoting.display(logPath)): cut a torn last line (\(cut) bytes) left by an earlier crash; its events were still queued"
                )
            }
        }
        let uploader = EventUploader(endpoint: plan.endpoint, key: plan.key, policy: plan.policy, extraCAFile: plan.caFile)
        let report = uploader.upload(queue, sentLog: sentLog) { attempt in
            io.standardOutput.write(JSONWriter.string(line(attempt)) + "\n")
        }
        reportSetAside(report.unreadable, io: io)
        reportWarnings(report.warnings, io: io)
        if let stopped = report.stopped { io.standardError.line("\(CarillonTool.name): \(APIWords.stop(stopped))") }
        io.standardError.line(
            "uploaded \(Quoting.display(plan.queue)): \(report.sent) sent in \(report.requests) request\(report.requests == 1 ? "" : "s"), "
                + "\(report.setAsideEvents) set aside, \(report.kept) kept in the queue")
        return report.isClean ? CarillonTool.exitSuccess : CarillonTool.exitDataError
    }

    /// The key from `--key-file`'s first line, else the environment; a usage error naming the file (never
    /// the key) when neither gives one.
    static func readKey(_ keyFile: String?) throws(UsageError) -> MobileKey {
        try KeySource.read(keyFile: keyFile, variable: keyVariable, kind: "mobile key") { text in
            Result { () throws(MobileKey.Problem) in try MobileKey(firstLineOf: text) }.mapError { KeySource.Problem(message: $0.message) }
        }
    }

    /// One attempt as its JSON line, members in the documented order.
    static func line(_ attempt: UploadAttempt) -> JSONValue {
        func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        return .object([
            (key: "batch", value: .number(String(attempt.batch))),
            (key: "events", value: .number(String(attempt.events))),
            (key: "attempt", value: .number(String(attempt.attempt))),
            (key: "status", value: number(attempt.status)),
            (key: "outcome", value: .string(attempt.outcome.rawValue)),
            (key: "received", value: number(attempt.received)),
            (key: "retry_after_ms", value: number(attempt.retryAfter.map { Int(clamping: $0.wholeMilliseconds) })),
            (key: "elapsed_ms", value: .number(ResultLine.milliseconds(attempt.elapsed.inMilliseconds))),
            (key: "detail", value: APIWords.detail(attempt).map { .string($0) } ?? .null),
        ])
    }
}
