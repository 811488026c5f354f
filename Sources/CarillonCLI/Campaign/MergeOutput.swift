@_spi(Tooling) import CarillonExtensionCore

/// Where `merge` writes as it goes: the lines (to `--lines FILE`, written under a temporary name and
/// renamed once whole, or to standard output) and, for `--format junit`, the test cases spooled until
/// the counts are known — what `process` writes, in the same shapes.
final class MergeOutput {
    private let io: ToolIO
    private let format: MergeCommand.Format
    /// Where the lines go, if anywhere; with the staged file behind `--lines FILE`.
    private let lines: (any TextSink)?
    private let linesFile: (descriptor: Int32, staged: FileSystem.StagedFile, path: String)?
    private let spool: JUnitSpool?
    private var pending = ""
    private var closed = false

    private init(
        io: ToolIO, format: MergeCommand.Format, lines: (any TextSink)?,
        linesFile: (descriptor: Int32, staged: FileSystem.StagedFile, path: String)?, spool: JUnitSpool?
    ) {
        self.io = io
        self.format = format
        self.lines = lines
        self.linesFile = linesFile
        self.spool = spool
    }

    deinit { discard() }

    /// The outputs `plan` asks for; nil (after saying why) when one cannot be made.
    static func open(_ plan: MergeCommand.Plan, io: ToolIO) -> MergeOutput? {
        var spool: JUnitSpool?
        var linesFile: (descriptor: Int32, staged: FileSystem.StagedFile, path: String)?
        do throws(FileSystemError) {
            if plan.format == .junit { spool = try JUnitSpool(in: PipelinePlan.temporaryDirectory()) }
            if let path = plan.linesPath {
                let (descriptor, staged) = try FileSystem.beginStaging(in: FileSystem.parentDirectory(of: path), mode: 0o644)
                linesFile = (descriptor, staged, path)
            }
        } catch {
            io.standardError.line("\(CarillonTool.name) merge: cannot start the output: \(error.description)")
            return nil
        }
        let lines: (any TextSink)? =
            linesFile.map { FileStream(descriptor: $0.descriptor) } ?? (plan.format == .json ? io.standardOutput : nil)
        return MergeOutput(io: io, format: plan.format, lines: lines, linesFile: linesFile, spool: spool)
    }

    /// One payload, in input order.
    func write(_ decoded: BundleRecord.Decoded) {
        if lines != nil {
            pending += String(decoding: decoded.line, as: UTF8.self)
            pending += "\n"
            if pending.utf8.count >= 64 * 1024 { flush() }
        }
        if let spool {
            let record = decoded.record
            spool.stream.write(
                JUnitXML.testCase(
                    name: record.name, classname: decoded.read ? JUnitXML.classname(imageURL: decoded.imageURL) : "no-image",
                    seconds: record.elapsedMilliseconds / 1000, verdict: record.verdict, reason: record.outcome.reason,
                    detail: record.outcome.detail) + "\n")
        }
    }

    /// The lines flushed and `--lines FILE` put in place, then JUnit printed; false (after saying why)
    /// when one could not be written.
    func finish(report: PayloadRunner.Report, seconds: Double, io: ToolIO) -> Bool {
        flush()
        var written = true
        if let linesFile {
            closed = true
            FileSystem.closeDescriptor(linesFile.descriptor)
            defer { linesFile.staged.discard() }
            do throws(FileSystemError) {
                if let failure = lines?.failure { throw FileSystemError("write", linesFile.path, errno: 0, explanation: failure) }
                _ = try linesFile.staged.publish(to: linesFile.path, replace: true)
            } catch {
                io.standardError.line("\(CarillonTool.name) merge: cannot write '\(Quoting.display(linesFile.path))': \(error.reason)")
                written = false
            }
        }
        if let spool {
            let header = JUnitXML.header(
                tests: report.outcomes.count, failures: report.testFailures, errors: report.testErrors, seconds: seconds)
            do throws(FileSystemError) {
                try spool.copy(to: io.standardOutput, header: header, footer: JUnitXML.footer)
            } catch {
                io.standardError.line("\(CarillonTool.name) merge: cannot print the JUnit report: \(error.description)")
                written = false
            }
        }
        return written
    }

    /// Leaves no `--lines` file behind: a merge that failed half-way writes none.
    func discard() {
        guard let linesFile, !closed else { return }
        closed = true
        FileSystem.closeDescriptor(linesFile.descriptor)
        linesFile.staged.discard()
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        lines?.write(pending)
        pending = ""
    }
}
