@_spi(Tooling) import CarillonExtensionCore
import Synchronization

/// `--bundle FILE` (SPEC §6c): one shard's result, written as the run goes — each payload's record in
/// input order as the tally takes it, each attached image the report shows once (the first time a payload
/// shows it), then the shard's summary and the end line once the run is over.
final class ShardBundle: Sendable {
    private struct State {
        var writer: ResultBundleWriter
        /// The attachment written for an image: by URL where payloads share one download, else by the
        /// digest of its bytes.
        var attachments: [String: Int] = [:]
        /// The image URLs whose attached bytes' digest a record has carried.
        var digested: Set<String> = []
    }

    let path: String
    private let state: Mutex<State>
    private let sharesImages: Bool

    /// Starts the bundle: its header, under a temporary name.
    init(path: String, header: ResultBundle.Header, sharesImages: Bool) throws(FileSystemError) {
        self.path = path
        let writer = try ResultBundleWriter(path: path, header: header)
        state = Mutex(State(writer: writer))
        self.sharesImages = sharesImages
    }

    /// The header of a run's bundle.
    static func header(_ plan: PipelinePlan, started: Timestamp) -> ResultBundle.Header {
        ResultBundle.Header(
            tool: CarillonVersion.current, shard: plan.shard ?? Shard(index: 0, count: 1)!, rule: plan.fleet.rule,
            runners: plan.fleet.runners, options: plan.fleet.verdictOptions, appName: plan.appName, started: started)
    }

    /// Adds a payload's record (in input order), after the image it shows when that is new; the first
    /// record of each image that attached it carries the bytes' digest (for the campaign's warning of
    /// distinct URLs answering identical images).
    func add(_ record: PayloadRecord) {
        guard var payload = record.bundleData, let line = record.bundleLine else { return }
        state.withLock { state in
            if let attachment = record.attachment {
                var bytes: [UInt8]?
                payload.attachment?.index = attachmentIndex(attachment, image: record.image, read: &bytes, &state)
                if let image = record.image, !state.digested.contains(image) {
                    payload.imageSHA256 = bytes.map { SHA256.hex($0) } ?? IdenticalImages.fileDigest(attachment.path)
                    if payload.imageSHA256 != nil { state.digested.insert(image) }
                }
            }
            state.writer.add(ResultBundle.Record(position: record.position, data: payload.json, line: line))
        }
    }

    /// The attachment's index in the bundle, written now if it is new (its bytes left in `read`); nil
    /// when the report would not embed it (over its limit, or unreadable).
    private func attachmentIndex(_ attachment: NotificationAttachment, image: String?, read: inout [UInt8]?, _ state: inout State)
        -> Int?
    {
        guard attachment.byteCount <= ReportFile.maximumEmbeddedImageBytes else { return nil }
        if sharesImages, let image, let known = state.attachments[image] { return known }
        let entry = ReportEntry.Attachment(path: attachment.path, type: attachment.type, byteCount: attachment.byteCount)
        guard let bytes = ReportFile.readAttachment(entry) else { return nil }
        read = bytes
        let key = sharesImages && image != nil ? image! : "sha256:" + SHA256.hex(bytes)
        if let known = state.attachments[key] { return known }
        let index = state.writer.addAttachment(BundledImage(type: attachment.type, bytes: bytes).json)
        state.attachments[key] = index
        return index
    }

    /// Ends the bundle with the summary and the input's identity and renames it into place, then says
    /// where on standard error; false (after saying why) when it could not be written.
    func finish(summary: JSONValue, input: ResultBundle.Input, records: Int, shard: Shard, io: ToolIO) -> Bool {
        let started = ContinuousClock.now
        do throws(FileSystemError) {
            try state.withLock { (state) throws(FileSystemError) in
                try state.writer.finish(summary: summary, input: input, finished: .now())
            }
            let milliseconds = (ContinuousClock.now - started).inMilliseconds
            let bytes = FileSystem.size(path) ?? 0
            io.standardError.line(
                "\(CarillonTool.name): bundle: \(Quoting.display(path)) (\(bytes) bytes, written in \(ResultLine.milliseconds(milliseconds)) ms):"
                    + " shard \(shard), \(records) of \(input.payloads) payloads")
            return true
        } catch {
            io.standardError.line("\(CarillonTool.name): cannot write bundle '\(Quoting.display(path))': \(error.description)")
            return false
        }
    }

    /// Leaves nothing behind: a run that did not reach its end writes no bundle.
    func discard() {
        state.withLock { $0.writer.discard() }
    }
}
