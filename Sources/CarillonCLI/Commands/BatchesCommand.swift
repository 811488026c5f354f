@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse batches`: the pending `POST /v1/events` request bodies.
enum BatchesCommand: Command {
    static let name = "batches"
    static let summary = "Print the pending POST /v1/events bodies, one per line."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue.")
    }

    static let options: [OptionSpec] = [Options.queue.spec]

    static let arguments: [ArgumentSpec] = []

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "The pending bodies were printed."),
        ExitStatus(code: 1, meaning: "An event file was corrupt (set aside and reported), or the queue could not be read."),
        ExitStatus(code: 64, meaning: "Bad usage, a --queue that is not a directory or is not writable included."),
    ]

    static let overview = """
        Prints the queue's pending events as the bodies of POST /v1/events requests, at most 100 events
        each, in queue order, one body per line:
          {"events":[{"type":"received","delivery_id":"…","at":"2026-08-20T09:16:44.120Z"}]}
        Nothing is sent and nothing is removed. An event whose "at" is in the future or more than 30
        days old is named in a warning: the API will store its receive time instead.
        """

    /// The queue, checked.
    struct Plan {
        var queue: String
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        try expectNoArguments(arguments)
        let queue = try Options.queue.read(arguments)
        try DirectoryCheck.check(queue, option: Options.queue.spec.name, access: .writeIfPresent)
        return Plan(queue: queue)
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard FileSystem.isDirectory(plan.queue) else {
            io.standardError.line("\(CarillonTool.name): \(Quoting.display(plan.queue)): no such queue directory")
            return CarillonTool.exitDataError
        }
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        do {
            let contents = try queue.contents()
            var output = ""
            for batch in EventBatch.batches(of: contents.events) { output += batch.requestBody + "\n" }
            io.standardOutput.write(output)
            reportSetAside(contents.quarantined, io: io)
            reportWarnings(ClockRule.warnings(for: contents.events, now: .now()), io: io)
            return contents.quarantined.isEmpty ? CarillonTool.exitSuccess : CarillonTool.exitDataError
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot read the queue: \(error)")
            return CarillonTool.exitDataError
        }
    }
}
