@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse open`: the app's `didOpen(userInfo:)` — queues `opened` events for stamped payloads.
enum OpenCommand: Command {
    static let name = "open"
    static let summary = "Queue opened events for payloads, as didOpen(userInfo:)."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue (created if missing).")
        static let at = Option.instant("--at", help: "The tap's instant, e.g. 2026-08-20T09:16:44.120Z.")
    }

    static let options: [OptionSpec] = [Options.queue.spec, Options.at.spec]

    static let arguments = [ArgumentSpec.payloads]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every payload was read."),
        ExitStatus(code: 1, meaning: "A payload was unreadable or not a JSON object, or the queue could not be written."),
        ExitStatus(code: 64, meaning: "Bad usage, a --queue that is not a directory, cannot be created or is not writable included."),
    ]

    static let overview = """
        Does what the app's didOpen(userInfo:) does for each payload: queues one "opened" event for its
        carillon.delivery_id at the tap's instant. Payloads without a valid Carillon stamp are ignored
        (said on standard error). A delivery already opened keeps its first event.
        PAYLOAD is a file, a directory (its *.json and *.apns files, sorted) or - (standard input).

        Prints one JSON line per event queued.
        """

    /// The queue, the instant and the payloads, checked.
    struct Plan {
        var queue: String
        var at: Timestamp
        var payloads: [String]
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let at = try Options.at.read(arguments)
        let queue = try Options.queue.read(arguments)
        let payloads = try inputArguments(arguments, naming: "PAYLOAD")
        try DirectoryCheck.check(queue, option: Options.queue.spec.name, access: .create)
        return Plan(queue: queue, at: at, payloads: payloads)
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        var status = CarillonTool.exitSuccess
        // Each group's events are durable before any of its lines is printed.
        let allRead = PayloadInput.forEachGroup(plan.payloads, io: io) { group in
            var warnings: [String] = []
            let results = OpenTracking.didOpen(group.map(\.payload.userInfo), at: plan.at, queue: queue, warnings: &warnings)
            reportWarnings(warnings, io: io)
            var going = true
            for ((input, _), result) in zip(group, results) {
                switch result {
                case .success(.queued(let event)):
                    io.standardOutput.write(JSONWriter.string(event.jsonValue) + "\n")
                case .success(.alreadyQueued(let id)):
                    io.standardError.line(
                        "\(CarillonTool.name): \(input.name): delivery \(id) already has an opened event; kept the first")
                case .success(.notStamped(let why)):
                    io.standardError.line("\(CarillonTool.name): \(input.name): \(why); ignored")
                case .failure(let error), .success(.failed(_, let error)):
                    if !reportQueueFailure(error, of: input, io: io, status: &status) { going = false }
                }
            }
            if !going { reportLockStop(io: io) }
            return going
        }
        if !allRead { status = CarillonTool.exitDataError }
        return status
    }
}
