@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse readback`: reads a message back from the API and checks every sent event against it
/// (SPEC §10).
enum ReadbackCommand: Command {
    static let name = "readback"
    static let summary = "Read a message back from the API (GET /v1/messages/{id}) and check every sent event against it."

    /// The environment variable that may hold the secret key instead of `--key-file`.
    static let keyVariable = "CARILLON_SECRET_KEY"
    /// The largest sent log read (64 MiB: some 500,000 lines).
    static let sentLogLimit = 64 << 20

    /// How the read-back is shown.
    enum OutputFormat: String, CaseIterable, Sendable {
        case json, text
    }

    /// Every option, declared once.
    enum Options {
        static let endpoint = Option.requiredText(
            "--endpoint", "URL", help: "The API's base URL (https only); reads URL/v1/messages/ID.")
        static let message = Option.requiredText("--message", "ID", help: "The message (campaign) to read back.")
        static let sentLog = Option.path(
            "--sent-log", "FILE", help: "The log 'upload --sent-log' wrote: a verdict for every event in it.")
        static let opens = Option.flag("--opens", help: "Also read the hourly opens (needs the deliveries:read scope).")
        static let keyFile = Option.path(
            "--key-file", "FILE", help: "A file whose first line is the secret key (else $CARILLON_SECRET_KEY).")
        static let caFile = Option.path(
            "--ca-file", "PEM", help: "Extra certificate authorities to trust (tests, staging). Verification stays on.")
        static let format = Option.choice(
            "--format", OutputFormat.allCases, default: .json, help: "JSON Lines, or text with the opens drawn as bars.")
        static let maxAttempts = Option.positiveInteger(
            "--max-attempts", default: RetryPolicy.standard.maximumAttempts, maximum: 100,
            help: "Requests per read at most, the first included.")
        static let deadline = Option.duration(
            "--deadline", default: RetryPolicy.standard.deadline, help: "Wall time for every read, every wait included.")
    }

    static let options: [OptionSpec] = [
        Options.endpoint.spec, Options.message.spec, Options.sentLog.spec, Options.opens.spec, Options.keyFile.spec,
        Options.caFile.spec, Options.format.spec, Options.maxAttempts.spec, Options.deadline.spec,
    ]

    static let arguments: [ArgumentSpec] = []

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every sent event is recorded, substituted, superseded or not-sampled."),
        ExitStatus(
            code: 1,
            meaning:
                "The API refused (the key, 404, 5xx after retries) or answered what is not the documented JSON, or the sent log has a bad line."
        ),
        ExitStatus(code: 2, meaning: "A sent event is missing or differs."),
        ExitStatus(code: 64, meaning: "Bad usage: no key, an http endpoint, an unreadable --key-file or --ca-file."),
    ]

    static var overview: String {
        """
        Reads GET URL/v1/messages/ID with the secret key (Authorization: Bearer, never printed) and prints
        the message (outcomes, platforms) and one line per sampled delivery: opened_at, received_at (the
        observed time) and received_reported_at (when the API heard; later after an offline period).

        With --sent-log FILE (written by 'upload --sent-log'), one verdict per event sent:
          recorded     the API holds the at that was sent
          substituted  the clock rule applied: at was in the future or over 30 days old when the API
                       received it, and the stored time lies between the request and its 2xx
          superseded   an earlier report of the same type and delivery won (first report wins)
          missing      the delivery is listed and its field is null
          differs      another time is stored (both are shown)
          not-sampled  the delivery is not in the sampled list (at most 50): unknowable here
        --opens reads GET URL/v1/messages/ID/opens, the first 48 hours' curve; --format text draws it.

        The same transport rules as 'upload': TLS verified, retries of no answer, 408, 429 and 5xx with
        backoff and jitter honouring Retry-After, within --max-attempts and --deadline; an answer over
        \(MessageReader.maximumAnswerBytes / 1024) KiB, or stalled for 30 s, ends the read.
        """
    }

    /// The endpoint, the message, the key, the trust, the policy and what to print, checked.
    struct Plan {
        var endpoint: APIEndpoint
        var message: String
        var key: APIKey
        var caFile: String?
        var policy: RetryPolicy
        var format: OutputFormat
        var sentLog: String?
        var opens: Bool
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        try expectNoArguments(arguments)
        let endpointText = try Options.endpoint.read(arguments)
        let endpoint: APIEndpoint
        do {
            endpoint = try APIEndpoint(validating: endpointText)
        } catch {
            throw UsageError(message: "--endpoint: \(error.detail)")
        }
        let message = try Options.message.read(arguments)
        if message.isEmpty { throw UsageError(message: "--message: an empty id") }
        let key = try readKey(try Options.keyFile.read(arguments))
        let caFile = try Options.caFile.read(arguments)
        if let caFile, let problem = CAFileCheck.problem(caFile) {
            throw UsageError(message: "--ca-file '\(Quoting.display(caFile))': \(problem)")
        }
        let policy = RetryPolicy(maximumAttempts: try Options.maxAttempts.read(arguments), deadline: try Options.deadline.read(arguments))
        return Plan(
            endpoint: endpoint, message: message, key: key, caFile: caFile, policy: policy, format: try Options.format.read(arguments),
            sentLog: try Options.sentLog.read(arguments), opens: try Options.opens.read(arguments))
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        let output = ReadbackOutput(io: io, format: plan.format)
        var lines: [(number: Int, line: SentLogLine)] = []
        if let path = plan.sentLog {
            switch SentLogFile.read(path, limit: sentLogLimit) {
            case .failure(let problem):
                io.standardError.line("\(CarillonTool.name): \(problem.message)")
                return CarillonTool.exitDataError
            case .success(let file):
                for warning in file.warnings { io.standardError.line("\(CarillonTool.name): warning: \(warning)") }
                lines = file.lines
            }
        }
        let reader = MessageReader(endpoint: plan.endpoint, key: plan.key, policy: plan.policy, extraCAFile: plan.caFile)
        let started = ContinuousClock.now
        let onRetry = { (status: Int?, wait: Duration) in
            io.standardError.line(
                "\(CarillonTool.name): \(status.map { "HTTP \($0)" } ?? "no answer"); trying again in \(wait.wholeMilliseconds) ms")
        }
        let message: MessageView
        switch reader.message(plan.message, started: started, onRetry: onRetry) {
        case .failure(let failure):
            io.standardError.line("\(CarillonTool.name): \(ReadbackWords.failure(failure, message: plan.message, opens: false))")
            return CarillonTool.exitDataError
        case .success(let read): message = read
        }
        output.message(message)
        let failed = lines.isEmpty ? false : output.verdicts(lines, message: message)
        if plan.opens {
            switch reader.opens(plan.message, started: started, onRetry: onRetry) {
            case .failure(let failure):
                io.standardError.line("\(CarillonTool.name): \(ReadbackWords.failure(failure, message: plan.message, opens: true))")
                return CarillonTool.exitDataError
            case .success(let hours): output.opens(hours)
            }
        }
        return failed ? CarillonTool.exitFailOn : CarillonTool.exitSuccess
    }

    /// The key from `--key-file`'s first line, else the environment; a usage error naming the file (never
    /// the key) when neither gives one.
    static func readKey(_ keyFile: String?) throws(UsageError) -> APIKey {
        try KeySource.read(keyFile: keyFile, variable: keyVariable, kind: "secret key") { text in
            Result { () throws(APIKey.Problem) in try APIKey(firstLineOf: text) }.mapError { KeySource.Problem(message: $0.message) }
        }
    }
}
