@_spi(Tooling) import CarillonExtensionCore

/// `carillon-nse drain`: the app's launch — pending receipts in the container become `received` events.
enum DrainCommand: Command {
    static let name = "drain"
    static let summary = "Move pending receipts from the container into the app's event queue."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let container = Option.requiredPath("--container", "DIR", help: "The shared container the extension writes receipts to.")
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue (created if missing).")
    }

    static let options: [OptionSpec] = [Options.container.spec, Options.queue.spec]

    static let arguments: [ArgumentSpec] = []

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every receipt was drained."),
        ExitStatus(code: 1, meaning: "A file was set aside or could not be handled."),
        ExitStatus(
            code: 64,
            meaning:
                "Bad usage, a --container or --queue that is not a directory or is not writable (or a --queue that cannot be created) included."
        ),
    ]

    static let overview = """
        Does what the app does at launch or activation: every whole receipt in the container becomes one
        "received" event in the queue (at = the receipt's time), and the receipt is removed only once
        its event is durably queued. Corrupt, truncated, empty or unknown-version receipt files are set
        aside in DIR/CarillonReceipts/Quarantine/ and reported; they never stop the others.

        Prints one JSON line per event queued; a summary goes to standard error.
        """

    /// The two directories, checked.
    struct Plan {
        var container: String
        var queue: String
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        try expectNoArguments(arguments)
        let plan = Plan(container: try Options.container.read(arguments), queue: try Options.queue.read(arguments))
        let receipts = ReceiptStore(container: plan.container).directory
        if PathRelation.isSameOrInside(plan.queue, receipts) {
            throw UsageError(
                message:
                    "option '--queue' must not be the container's receipts directory '\(receipts)' or inside it: the drain would read its own events as receipts"
            )
        }
        try DirectoryCheck.check(plan.container, option: Options.container.spec.name, access: .writeIfPresent)
        try DirectoryCheck.check(plan.queue, option: Options.queue.spec.name, access: .create)
        return plan
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        let report = ReceiptDrain.drain(container: plan.container, into: queue)
        var output = ""
        for event in report.queued { output += JSONWriter.string(event.jsonValue) + "\n" }
        io.standardOutput.write(output)
        reportSetAside(report.quarantined, io: io)
        reportWarnings(report.warnings, io: io)
        for failure in report.failures { io.standardError.line("\(CarillonTool.name): \(failure)") }
        io.standardError.line(
            "drained \(Quoting.display(plan.container)): \(report.queued.count) queued, \(report.alreadyQueued.count) already queued, "
                + "\(report.quarantined.count) set aside, \(report.failures.count) failed")
        return report.isClean ? CarillonTool.exitSuccess : CarillonTool.exitDataError
    }
}
