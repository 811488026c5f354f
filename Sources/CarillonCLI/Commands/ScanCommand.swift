@_spi(Tooling) import CarillonExtensionCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `carillon-nse scan`: the app's Notification Center check at configuration and activation — each
/// stamped notification still delivered becomes a `received` event dated when it was delivered.
enum ScanCommand: Command {
    static let name = "scan"
    static let summary = "Queue received events for notifications still in Notification Center."

    /// Every option, declared once: the parser's table, `--help` and the values `run` reads.
    enum Options {
        static let queue = Option.requiredPath("--queue", "DIR", help: "The app's persistent event queue (created if missing).")
    }

    static let options: [OptionSpec] = [Options.queue.spec]

    static let arguments = [
        ArgumentSpec(
            name: "NOTIFICATIONS", value: .file,
            about: "A JSON Lines file of delivered notifications, one {\"date\", \"payload\"} object a line, or - (standard input).")
    ]

    static let exitStatuses = [
        ExitStatus(code: 0, meaning: "Every line was read."),
        ExitStatus(code: 1, meaning: "A line or the file was unreadable, or the queue could not be written."),
        ExitStatus(code: 64, meaning: "Bad usage, a --queue that is not a directory, cannot be created or is not writable included."),
    ]

    static var overview: String {
        """
        Does what the app does at configuration and whenever it becomes active (SDK 0.5.0): every
        notification with a valid Carillon stamp still in Notification Center queues one "received"
        event with at = its delivery date, unless its delivery already has one. One received event per
        delivery id, whatever its source (a drained receipt, present, scan): the first queued wins and
        keeps its time. Events are queued in delivery-date order.

        NOTIFICATIONS is a JSON Lines file (or - for standard input, at most \(NotificationCenterScan.maximumInputBytes) bytes)
        of delivered notifications, one per line: {"date": ISO8601, "payload": {...}} (UNNotification.date
        and the request's userInfo; other members are ignored). Blank lines are skipped. A line that is not
        such an object, is over \(DeliveredNotification.maximumLineBytes) bytes, or gives "date" or "payload" twice is reported on
        standard error with its line number and skipped; the others are still queued.

        Prints one JSON line per notification read: line, delivery_id (or null), at (its date) and queued
        ("received", "duplicate", "none" or "failed"); a summary goes to standard error.
        """
    }

    /// The queue and the notifications file, checked.
    struct Plan {
        var queue: String
        /// The file, or `-`.
        var source: String
        /// The source as messages name it.
        var sourceName: String { source == "-" ? "-" : Quoting.display(source) }
    }

    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan {
        let queue = try Options.queue.read(arguments)
        guard let source = arguments.positionals.first else { throw UsageError(message: "no NOTIFICATIONS file given") }
        guard arguments.positionals.count == 1 else {
            throw UsageError(message: "unexpected argument '\(arguments.positionals[1])': scan reads one NOTIFICATIONS file")
        }
        try DirectoryCheck.check(queue, option: Options.queue.spec.name, access: .create)
        return Plan(queue: queue, source: source)
    }

    static func run(_ plan: Plan, io: ToolIO) -> Int32 {
        guard let queue = openQueue(plan.queue, io: io) else { return CarillonTool.exitDataError }
        let bytes: [UInt8]
        switch read(plan.source, io: io) {
        case .success(let read): bytes = read
        case .failure(let error):
            io.standardError.line("\(CarillonTool.name): \(plan.sourceName): \(error.message)")
            return CarillonTool.exitDataError
        }
        let parsed = notifications(in: bytes, plan: plan, io: io)
        let counts = queueAndPrint(parsed.notifications, into: queue, plan: plan, io: io)
        io.standardError.line(
            "scanned \(plan.sourceName): \(parsed.notifications.count) notifications: \(counts.queued) queued, \(counts.duplicate) already queued, "
                + "\(counts.none) not stamped, \(counts.failed) failed; \(parsed.skipped) lines skipped")
        return parsed.skipped == 0 && counts.failed == 0 ? CarillonTool.exitSuccess : CarillonTool.exitDataError
    }

    /// What became of the notifications read.
    struct Counts {
        var queued = 0
        var duplicate = 0
        var none = 0
        var failed = 0
    }

    /// The notifications of the file, each with its line number; a line that is not one is said on
    /// standard error and skipped (counted in `skipped`).
    private static func notifications(in bytes: [UInt8], plan: Plan, io: ToolIO) -> (
        notifications: [(line: Int, notification: DeliveredNotification)], skipped: Int
    ) {
        var notifications: [(line: Int, notification: DeliveredNotification)] = []
        var skipped = 0
        for numbered in NotificationCenterScan.lines(bytes) {
            switch numbered.line {
            case .blank:
                continue
            case .invalid(let why):
                io.standardError.line("\(CarillonTool.name): \(plan.sourceName):\(numbered.number): \(why); skipped")
                skipped += 1
            case .notification(let notification):
                for warning in notification.warnings {
                    io.standardError.line("\(CarillonTool.name): warning: \(plan.sourceName):\(numbered.number): \(warning)")
                }
                notifications.append((numbered.number, notification))
            }
        }
        return (notifications, skipped)
    }

    /// Queues the notifications' events and prints a line per notification; says on standard error why
    /// one was not queued.
    private static func queueAndPrint(
        _ notifications: [(line: Int, notification: DeliveredNotification)], into queue: EventQueue, plan: Plan, io: ToolIO
    ) -> Counts {
        var warnings: [String] = []
        let entries = NotificationCenterScan.scan(notifications, into: queue, warnings: &warnings)
        reportWarnings(warnings, io: io)
        var output = ""
        var counts = Counts()
        var lockHeld = false
        for (entry, item) in zip(entries, notifications) {
            output += JSONWriter.string(line(entry, at: item.notification.date)) + "\n"
            switch entry.received {
            case .queued: counts.queued += 1
            case .alreadyQueued: counts.duplicate += 1
            case .notStamped(let why):
                counts.none += 1
                io.standardError.line("\(CarillonTool.name): \(plan.sourceName):\(entry.line): \(why); no received event")
            case .failed(_, let error):
                counts.failed += 1
                if error.isLockTimeout {
                    lockHeld = true
                } else {
                    io.standardError.line("\(CarillonTool.name): \(plan.sourceName):\(entry.line): cannot queue the event: \(error)")
                }
            }
        }
        io.standardOutput.write(output)
        if lockHeld {
            // The scan waits once, not once per notification: every later one would wait as long in vain.
            io.standardError.line(
                "\(CarillonTool.name): stopped: the queue's lock is held by another process; \(counts.failed) notifications not queued")
        }
        return counts
    }

    /// A notification's output line: `line`, `delivery_id`, `at`, `queued`.
    private static func line(_ entry: NotificationCenterScan.Entry, at date: Timestamp) -> JSONValue {
        .object([
            (key: "line", value: .number(String(entry.line))),
            (key: "delivery_id", value: entry.received.deliveryID.map { .string($0.rawValue) } ?? .null),
            (key: "at", value: .string(date.iso8601)),
            (key: "queued", value: .string(entry.received.code)),
        ])
    }

    /// The whole input, at most ``NotificationCenterScan/maximumInputBytes``: a regular file's size is
    /// checked before reading; a pipe or device is read up to the limit.
    static func read(_ source: String, io: ToolIO) -> Result<[UInt8], ReadError> {
        let limit = NotificationCenterScan.maximumInputBytes
        if source == "-" {
            do {
                return .success(try io.readStandardInput(limit))
            } catch let error as FileSystemError {
                return .failure(
                    ReadError(
                        message: error.errno == EFBIG
                            ? "more than \(limit) bytes on standard input; not read" : "cannot read: \(error.reason)"))
            } catch {
                return .failure(ReadError(message: "cannot read: \(error)"))
            }
        }
        do {
            return .success(try FileSystem.readFile(source, limit: limit, policy: .namedByUser))
        } catch {
            guard error.errno == EFBIG else { return .failure(ReadError(message: "cannot read: \(error.reason)")) }
            if (try? FileSystem.kind(source)) == .regularFile, let size = FileSystem.size(source) {
                return .failure(
                    ReadError(message: "file is \(size) bytes, over the \(limit)-byte limit for a notifications file; not read"))
            }
            return .failure(
                ReadError(message: "more than \(limit) bytes (the limit for a notifications file) from a pipe or device; not read"))
        }
    }

    struct ReadError: Error {
        var message: String
    }
}
