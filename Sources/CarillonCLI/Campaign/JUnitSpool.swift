@_spi(Tooling) import CarillonExtensionCore

/// Where `--format junit` keeps its test cases until the run is over: the document's counts come
/// first, and are known only at the end. An unlinked temporary file (no name to leave behind, memory
/// flat for 100,000 payloads); at the end the header, the cases and the footer go to standard output,
/// so a run killed before then prints no XML at all rather than a document that looks whole.
final class JUnitSpool: Sendable {
    let descriptor: Int32
    /// Where the runner writes the test cases.
    let stream: FileStream

    /// Creates the file in `directory`, without a name (``FileSystem/createScratchFile(in:)``).
    init(in directory: String) throws(FileSystemError) {
        descriptor = try FileSystem.createScratchFile(in: directory)
        stream = FileStream(descriptor: descriptor)
    }

    deinit { system_close(descriptor) }

    /// Writes `header`, every spooled case and `footer` to `output`, in whole lines.
    func copy(to output: any TextSink, header: String, footer: String) throws(FileSystemError) {
        if let failure = stream.failure { throw FileSystemError("write", "the JUnit spool", errno: _EIO, explanation: failure) }
        guard system_lseek(descriptor, 0, _SEEK_SET) == 0 else { throw FileSystemError("lseek", "the JUnit spool", errno: system_errno) }
        output.write(header)
        var carried: [UInt8] = []
        try FileSystem.readChunks(descriptor: descriptor, path: "the JUnit spool") { (piece) throws(FileSystemError) -> Bool in
            carried.append(contentsOf: piece)
            // Only whole lines: a piece may end inside a character.
            guard let last = carried.lastIndex(of: 0x0A) else { return true }
            output.write(String(decoding: carried[...last], as: UTF8.self))
            carried.removeSubrange(...last)
            return true
        }
        if !carried.isEmpty { output.write(String(decoding: carried, as: UTF8.self)) }
        output.write(footer)
    }

    /// Prints the whole document for `report` to standard output; false (after saying why) on failure.
    static func print(_ spool: JUnitSpool, report: PayloadRunner.Report, since started: ContinuousClock.Instant, io: ToolIO) -> Bool {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let header = JUnitXML.header(
            tests: report.outcomes.count, failures: report.testFailures, errors: report.testErrors, seconds: seconds)
        do throws(FileSystemError) {
            try spool.copy(to: io.standardOutput, header: header, footer: JUnitXML.footer)
            return true
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot print the JUnit report: \(error.description)")
            return false
        }
    }
}
