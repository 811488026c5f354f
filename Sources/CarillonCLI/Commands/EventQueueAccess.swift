@_spi(Tooling) import CarillonExtensionCore

/// Opens (creating if needed) the event queue, or says why not; says what was put right on the way.
func openQueue(_ path: String, io: ToolIO) -> EventQueue? {
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
func reportSetAside(_ files: [QuarantinedFile], io: ToolIO) {
    for file in files {
        io.standardError.write(
            "\(CarillonTool.name): \(FileName.display(file.file)): \(file.reason); set aside as \(FileName.display(file.movedTo))\n")
    }
}
