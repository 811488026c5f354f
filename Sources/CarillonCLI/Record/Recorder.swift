@_spi(Tooling) import CarillonExtensionCore
import Synchronization

/// Writes `process --record`'s directory: one HAR file per payload that downloaded (the core's
/// ``HARRecording``, named by ``HARFileName``), large bodies in `bodies/`, every file atomically
/// (temporary, then rename: never torn, but not fsynced, since a recording is evidence, not a receipt)
/// with exact modes.
final class Recorder: Sendable {
    let directory: String
    let inlineLimit: Int
    let keepsSecrets: Bool
    let transport: RecordingTransport
    /// Per image URL, the file of the payload whose download it was (a shared download's others point to it).
    private let firsts = FirstRecordings()
    private let standardInputs = Atomic<Int>(0)

    init(directory: String, inlineLimit: Int, keepsSecrets: Bool, transport: RecordingTransport) {
        self.directory = directory
        self.inlineLimit = inlineLimit
        self.keepsSecrets = keepsSecrets
        self.transport = transport
    }

    /// The recorder the options ask for, its directories made (0700), or nil without `--record`.
    ///
    /// Made while the command line is checked: a DIR that cannot be made is a usage error before any payload runs.
    ///
    /// - Throws: a usage error when DIR is inside the container or the attachments directory, or cannot be made.
    static func make(
        _ arguments: ParsedArguments, container: String?, attachments: String, download: DownloadConfiguration, expireAfter: Duration
    ) throws(UsageError) -> Recorder? {
        guard let directory = try RecordOptions.record.read(arguments) else { return nil }
        for (option, other) in [("--container", container), ("--attachments", attachments)] {
            if let other, PathRelation.isSameOrInside(directory, other) {
                throw UsageError(
                    message: "option '--record' '\(Quoting.display(directory))' must not be inside \(option) '\(Quoting.display(other))'")
            }
        }
        let bodies = FileSystem.join(directory, "bodies")
        do throws(FileSystemError) {
            for path in [directory, bodies] {
                if !FileSystem.isDirectory(path) { try FileSystem.makeDirectory(path, mode: 0o700) }
                try FileSystem.setDirectoryMode(path, 0o700)
            }
        } catch {
            throw UsageError(message: "option '--record' '\(Quoting.display(directory))': \(error.description)")
        }
        let keeps = try RecordOptions.keepSecrets.read(arguments)
        return Recorder(
            directory: directory, inlineLimit: try RecordOptions.inline.read(arguments), keepsSecrets: keeps,
            transport: RecordingTransport(configuration: download, expireAfter: expireAfter, bodiesDirectory: bodies))
    }

    /// Says on standard error what `--record-keep-secrets` keeps, before any recording is written.
    func sayWhatIsKept(io: ToolIO) {
        guard keepsSecrets else { return }
        io.standardError.line(
            "\(CarillonTool.name): --record-keep-secrets: recordings keep Authorization, Cookie, Set-Cookie, signed-URL"
                + " parameters, secret-looking --header values and alert text as sent")
    }

    /// The file name for a payload (``HARFileName``): its file's name without `.json`, `<stem>-L<line>`
    /// for a line, `stdin-<n>`.
    func fileName(_ input: PayloadInput) -> String {
        switch input {
        case .standardInput: HARFileName.forStandardInput(standardInputs.add(1, ordering: .relaxed).newValue)
        case .file(let path, _): HARFileName.forPayload(named: FileSystem.lastComponent(path))
        case .line(let line): HARFileName.forPayload(named: line.name)
        case .made(let name, _): HARFileName.forPayload(named: name)
        }
    }

    /// Records one payload's download, if it made or shared one, its verdict `line` (the JSON line as
    /// printed, without `recording`): returns the file's path, or nil.
    ///
    /// A download still under way when the verdict came (time-will-expire while a shared download goes
    /// on) is waited for; a shared download's recording waits for its first payload's file, and is not
    /// written when there is none to name.
    func record(_ input: PayloadInput, payload: Payload, result: ServiceResult, line: JSONValue, io: ToolIO) -> String? {
        guard let url = result.imageURL, result.trace != nil || result.sharedWith != nil else { return nil }
        let name = fileName(input)
        let path = FileSystem.join(directory, name)
        let recording = HARRecording(payload: payload, verdict: line, keepsSecrets: keepsSecrets, transport: transport)
        guard result.sharedWith == nil else {
            guard let first = firsts.name(of: url, waitingAtMost: transport.configuration.limits.budget + .seconds(2)) else {
                io.standardError.line(
                    "\(CarillonTool.name): cannot write recording '\(Quoting.display(path))': the download it shared was not recorded")
                return nil
            }
            return write(recording.sharedHAR(with: first), to: path, io: io) ? path : nil
        }
        firsts.writing(url)
        guard let taken = transport.take(url) else {
            firsts.finished(url, name: nil)
            io.standardError.line("\(CarillonTool.name): cannot write recording '\(Quoting.display(path))': its download was not kept")
            return nil
        }
        // After the verdict: a handshake refused for its protocol or suite is asked again with them relaxed.
        let (download, relaxed) = transport.askingRelaxed(taken)
        var written = false
        defer { firsts.finished(url, name: written ? name : nil) }
        do throws(FileSystemError) {
            var recording = recording
            let json = try recording.har(download, relaxed: relaxed, inlineLimit: inlineLimit, bodies: transport.bodiesDirectory)
            written = write(json, to: path, io: io)
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write recording '\(Quoting.display(path))': \(error.description)")
        }
        if !written {
            for kept in [download, relaxed].compactMap({ $0 }) {
                kept.stagedBody?.discard()
                kept.wire?.staged?.discard()
            }
        }
        return written ? path : nil
    }

    /// Writes `json` to `path` whole or not at all, never synced: a recording is evidence, not a
    /// receipt (SPEC §7). False after a stderr line when it cannot be written.
    private func write(_ json: JSONValue, to path: String, io: ToolIO) -> Bool {
        do throws(FileSystemError) {
            _ = try FileSystem.publishAtomically(Array(JSONWriter.string(json).utf8), to: path, mode: 0o600, replace: true, synced: false)
            return true
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write recording '\(Quoting.display(path))': \(error.description)")
            return false
        }
    }
}
