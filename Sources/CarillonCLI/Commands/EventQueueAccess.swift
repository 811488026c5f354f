@_spi(Tooling) import CarillonExtensionCore

/// Opens (creating if needed) the event queue, or says why not; says what was put right on the way.
func openQueue(_ path: String, io: ToolIO) -> EventQueue? {
    do {
        let queue = try EventQueue(directory: path)
        reportWarnings(queue.openingWarnings, io: io)
        return queue
    } catch {
        io.standardError.line("\(CarillonTool.name): cannot open the event queue: \(error)")
        return nil
    }
}

/// One stderr line per file set aside into a quarantine: which file, why, and where it went.
func reportSetAside(_ files: [QuarantinedFile], io: ToolIO) {
    for file in files {
        io.standardError.line(
            "\(CarillonTool.name): \(Quoting.display(file.file)): \(file.reason); set aside as \(Quoting.display(file.movedTo))")
    }
}

/// One stderr line per warning: what was put right on the way (a counter rebuilt, a mode tightened) or
/// what the API will do with an event (an `at` it will replace).
func reportWarnings(_ warnings: [String], io: ToolIO) {
    for warning in warnings { io.standardError.line("\(CarillonTool.name): warning: \(warning)") }
}

/// A payload whose event could not be queued: its stderr line, and exit status 1. Returns false once the
/// queue's lock has timed out: one bounded wait per command, not one per payload (the others would wait
/// as long in vain); the command then stops with ``reportLockStop(io:)``.
func reportQueueFailure(_ error: FileSystemError, of input: PayloadInput, io: ToolIO, status: inout Int32) -> Bool {
    io.standardError.line("\(CarillonTool.name): \(input.name): cannot queue the event: \(error)")
    status = CarillonTool.exitDataError
    return !error.isLockTimeout
}

/// The line a command that stopped at a held lock ends with.
func reportLockStop(io: ToolIO) {
    io.standardError.line("\(CarillonTool.name): stopped: the queue's lock is held by another process")
}
