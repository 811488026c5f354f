import CarillonExtensionCore

/// `carillon-nse drain`: the app's launch — pending receipts in the container become `received` events.
enum DrainCommand: Command {
    static let name = "drain"
    static let summary = "Move pending receipts from the container into the app's event queue."
    static let options: [OptionSpec] = [
        OptionSpec(name: "--container", valueName: "DIR", help: "The shared container the extension writes receipts to."),
        OptionSpec(name: "--queue", valueName: "DIR", help: "The app's persistent event queue (created if missing)."),
    ]

    static var help: String {
        """
        Usage: carillon-nse drain --container DIR --queue DIR

        Does what the app does at launch or activation: every whole receipt in the container becomes one
        "received" event in the queue (at = the receipt's time), and the receipt is removed only once
        its event is durably queued. Corrupt, truncated, empty or unknown-version receipt files are set
        aside in DIR/CarillonReceipts/Quarantine/ and reported; they never stop the others.

        Prints one JSON line per event queued; a summary goes to standard error.

        Options:
        \(optionsHelp(options + [CarillonTool.helpOption]))

        Exit status: 0 when every receipt was drained, 1 when a file was set aside or could not be
        handled, 64 on bad usage.

        """
    }

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positionals[0])'") }
        let container = try required("--container", arguments)
        let queuePath = try required("--queue", arguments)
        let receipts = ReceiptStore(container: container).directory
        if PathRelation.isSameOrInside(queuePath, receipts) {
            throw UsageError(message: "option '--queue' must not be the container's receipts directory '\(receipts)' or inside it: the drain would read its own events as receipts")
        }
        let queue = openQueue(queuePath, io: io)
        guard let queue else { return CarillonTool.exitDataError }

        let report = ReceiptDrain.drain(container: container, into: queue)
        var output = ""
        for event in report.queued { output += JSONWriter.string(event.jsonValue) + "\n" }
        io.standardOutput.write(output)
        reportSetAside(report.quarantined, io: io)
        for warning in report.warnings { io.standardError.write("\(CarillonTool.name): warning: \(warning)\n") }
        for failure in report.failures { io.standardError.write("\(CarillonTool.name): \(failure)\n") }
        io.standardError.write(
            "drained \(FileName.display(container)): \(report.queued.count) queued, \(report.alreadyQueued.count) already queued, "
                + "\(report.quarantined.count) set aside, \(report.failures.count) failed\n")
        return report.isClean ? CarillonTool.exitSuccess : CarillonTool.exitDataError
    }
}

/// `carillon-nse open`: the app's `didOpen(userInfo:)` — queues `opened` events for stamped payloads.
enum OpenCommand: Command {
    static let name = "open"
    static let summary = "Queue opened events for payloads, as didOpen(userInfo:)."
    static let options: [OptionSpec] = [
        OptionSpec(name: "--queue", valueName: "DIR", help: "The app's persistent event queue (created if missing)."),
        OptionSpec(name: "--at", valueName: "ISO8601", help: "The tap's instant, e.g. 2026-08-20T09:16:44.120Z (default: now)."),
    ]

    static var help: String {
        """
        Usage: carillon-nse open --queue DIR [--at ISO8601] PAYLOAD...

        Does what the app's didOpen(userInfo:) does for each payload: queues one "opened" event for its
        carillon.delivery_id at the tap's instant. Payloads without a valid Carillon stamp are ignored
        (said on standard error). A delivery already opened keeps its first event.
        PAYLOAD is a file, a directory (its *.json files, sorted) or - (standard input).

        Prints one JSON line per event queued.

        Options:
        \(optionsHelp(options + [CarillonTool.helpOption]))

        Exit status: 0 when every payload was read, 1 when a payload was unreadable or not a JSON object
        or the queue could not be written, 64 on bad usage.

        """
    }

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        var at = Timestamp.now()
        if let text = arguments.value("--at") {
            guard let parsed = Timestamp(iso8601: text) else {
                throw UsageError(message: "option '--at' needs an ISO 8601 time such as 2026-08-20T09:16:44.120Z, not '\(text)'")
            }
            at = parsed
        }
        let queuePath = try required("--queue", arguments)
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "no PAYLOAD given") }
        guard let queue = openQueue(queuePath, io: io) else { return CarillonTool.exitDataError }

        var status = CarillonTool.exitSuccess
        for input in PayloadInput.expandAll(arguments.positionals, io: io, status: &status) {
            let payload: Payload
            switch input.readPayload(io: io) {
            case .success(let read): payload = read
            case .failure(let error):
                io.standardError.write("\(CarillonTool.name): \(input.name): \(error.message)\n")
                status = CarillonTool.exitDataError
                continue
            }
            do {
                var warnings: [String] = []
                defer { for warning in warnings { io.standardError.write("\(CarillonTool.name): warning: \(warning)\n") } }
                switch try OpenTracking.didOpen(userInfo: payload.userInfo, at: at, queue: queue, warnings: &warnings) {
                case .queued(let event):
                    io.standardOutput.write(JSONWriter.string(event.jsonValue) + "\n")
                case .alreadyQueued(let id):
                    io.standardError.write("\(CarillonTool.name): \(input.name): delivery \(id) already has an opened event; kept the first\n")
                case .notStamped(let why):
                    io.standardError.write("\(CarillonTool.name): \(input.name): \(why); ignored\n")
                }
            } catch {
                io.standardError.write("\(CarillonTool.name): \(input.name): cannot queue the event: \(error)\n")
                status = CarillonTool.exitDataError
                // One bounded wait per command, not one per payload: the others would wait as long in vain.
                if error.isLockTimeout {
                    io.standardError.write("\(CarillonTool.name): stopped: the queue's lock is held by another process\n")
                    break
                }
            }
        }
        return status
    }
}

/// `carillon-nse batches`: the pending `POST /v1/events` request bodies.
enum BatchesCommand: Command {
    static let name = "batches"
    static let summary = "Print the pending POST /v1/events bodies, one per line."
    static let options: [OptionSpec] = [
        OptionSpec(name: "--queue", valueName: "DIR", help: "The app's persistent event queue.")
    ]

    static var help: String {
        """
        Usage: carillon-nse batches --queue DIR

        Prints the queue's pending events as the bodies of POST /v1/events requests, at most 100 events
        each, in queue order, one body per line:
          {"events":[{"type":"received","delivery_id":"…","at":"2026-08-20T09:16:44.120Z"}]}
        Nothing is sent and nothing is removed.

        Options:
        \(optionsHelp(options + [CarillonTool.helpOption]))

        Exit status: 0, or 1 when an event file was corrupt (set aside and reported) or the queue could not
        be read, 64 on bad usage.

        """
    }

    static func run(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positionals[0])'") }
        let path = try required("--queue", arguments)
        guard FileSystem.isDirectory(path) else {
            io.standardError.write("\(CarillonTool.name): \(FileName.display(path)): no such queue directory\n")
            return CarillonTool.exitDataError
        }
        guard let queue = openQueue(path, io: io) else { return CarillonTool.exitDataError }
        do {
            let contents = try queue.contents()
            var output = ""
            for batch in EventBatch.batches(of: contents.events) { output += batch.requestBody + "\n" }
            io.standardOutput.write(output)
            reportSetAside(contents.quarantined, io: io)
            return contents.quarantined.isEmpty ? CarillonTool.exitSuccess : CarillonTool.exitDataError
        } catch {
            io.standardError.write("\(CarillonTool.name): cannot read the queue: \(error)\n")
            return CarillonTool.exitDataError
        }
    }
}

/// The value of a required path option.
private func required(_ name: String, _ arguments: ParsedArguments) throws(UsageError) -> String {
    guard let value = try arguments.path(name) else { throw UsageError(message: "option '\(name)' is required") }
    return value
}

/// Opens (creating if needed) the event queue, or says why not; says what was put right on the way.
private func openQueue(_ path: String, io: ToolIO) -> EventQueue? {
    do {
        let queue = try EventQueue(directory: path)
        for warning in queue.openingWarnings { io.standardError.write("\(CarillonTool.name): warning: \(warning)\n") }
        return queue
    } catch {
        io.standardError.write("\(CarillonTool.name): cannot open the event queue: \(error)\n")
        return nil
    }
}

/// One stderr line per file set aside into a quarantine: which file, why, and where it went.
private func reportSetAside(_ files: [QuarantinedFile], io: ToolIO) {
    for file in files {
        io.standardError.write(
            "\(CarillonTool.name): \(FileName.display(file.file)): \(file.reason); set aside as \(FileName.display(file.movedTo))\n")
    }
}
