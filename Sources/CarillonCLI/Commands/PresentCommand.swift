@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse present`: the app's `willPresent(userInfo:)` — a notification arriving in the foreground
/// queues a `received` event for a stamped payload, and says how the system shows it.
enum PresentCommand: Command {
    static let name = "present"
    static let summary = "Queue received events for payloads, as willPresent(userInfo:)."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue (created if missing).")
        static let at = Option.instant("--at", help: "The instant the notification reached willPresent, e.g. 2026-08-20T09:16:44.120Z.")
        static let suppress = Option.flag(
            "--suppress", help: "Model an onReceived handler that shows nothing (presentation []); the receipt is queued all the same.")
    }

    static let options: [OptionSpec] = [Options.queue.spec, Options.at.spec, Options.suppress.spec]

    static let arguments = [ArgumentSpec.payloads]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every payload was read."),
        ExitStatus(code: 1, meaning: "A payload was unreadable or not a JSON object, or the queue could not be written."),
        ExitStatus(code: 64, meaning: "Bad usage, a --queue that is not a directory, cannot be created or is not writable included."),
    ]

    static let overview = """
        Does what the app's willPresent(userInfo:) does for each payload (SDK 0.5.0): a payload with a
        valid Carillon stamp queues one "received" event for its carillon.delivery_id at that instant;
        one without reaches onReceived with deliveryId == nil and queues nothing (said on standard error).
        One received event per delivery id, whatever its source (a drained receipt, present, scan): the
        first queued wins and keeps its time.
        PAYLOAD is a file, a directory (its *.json and *.apns files, sorted) or - (standard input).

        Prints one JSON line per payload: payload, delivery_id (or null), queued ("received",
        "duplicate", "none" or "failed") and presentation (["banner","list","sound","badge"], the SDK's
        default without a handler, or [] with --suppress).
        """

    /// The queue, the instant, the handler and the payloads, checked.
    struct Plan {
        var queue: String
        var at: Timestamp
        var suppress: Bool
        var payloads: [String]
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let at = try Options.at.read(arguments)
        let queue = try Options.queue.read(arguments)
        let suppress = try Options.suppress.read(arguments)
        let payloads = try inputArguments(arguments, naming: "PAYLOAD")
        try DirectoryCheck.check(queue, option: Options.queue.spec.name, access: .create)
        return Plan(queue: queue, at: at, suppress: suppress, payloads: payloads)
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        let showNothing: PresentTracking.OnReceived = { _ in [] }
        let onReceived = plan.suppress ? showNothing : nil

        var status = CarillonTool.exitSuccess
        // Each group's events are durable before any of its lines is printed.
        let allRead = PayloadInput.forEachGroup(plan.payloads, io: io) { group in
            var warnings: [String] = []
            let results = PresentTracking.willPresent(
                group.map(\.payload.userInfo), at: plan.at, queue: queue, onReceived: onReceived, warnings: &warnings)
            reportWarnings(warnings, io: io)
            var going = true
            for ((input, _), result) in zip(group, results) {
                io.standardOutput.write(line(input, result) + "\n")
                switch result.received {
                case .queued, .alreadyQueued:
                    break
                case .notStamped(let why):
                    io.standardError.line("\(CarillonTool.name): \(input.name): \(why); no received event")
                case .failed(_, let error):
                    if !reportQueueFailure(error, of: input, io: io, status: &status) { going = false }
                }
            }
            if !going { reportLockStop(io: io) }
            return going
        }
        if !allRead { status = CarillonTool.exitDataError }
        return status
    }

    /// The output line: `payload` (and `payload_base64` for a name that is not UTF-8), `delivery_id`,
    /// `queued`, `presentation`.
    static func line(_ input: PayloadInput, _ result: PresentTracking.Answer) -> String {
        let members =
            input.jsonMembers + [
                (key: "delivery_id", value: result.received.deliveryID.map { .string($0.rawValue) } ?? .null),
                (key: "queued", value: .string(result.received.code)),
                (key: "presentation", value: .array(result.presentation.map { .string($0.rawValue) })),
            ]
        return JSONWriter.string(.object(members))
    }
}
