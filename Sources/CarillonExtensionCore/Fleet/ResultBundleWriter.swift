/// Writes one shard's bundle as its run goes: the header first, then each payload's record in input
/// order (and each attachment before the first record that names it), then the summary and the end line
/// with the count and CRC-32 of everything before it. The file grows under a temporary name in the
/// bundle's directory and is renamed into place only by ``finish(summary:input:finished:)``: a reader
/// sees no bundle or a whole one, and a run stopped before its end leaves none (``discard()``). Not
/// fsynced: a bundle is a result to merge, not a receipt, and a power cut only loses the run.
package final class ResultBundleWriter {
    package let path: String
    private let descriptor: Int32
    private let staged: FileSystem.StagedFile
    private var check = ResultBundle.Check()
    private var buffer: [UInt8] = []
    private var written = 0
    private var records = 0
    private var attachments = 0
    private var lastPosition = -1
    private var failure: FileSystemError?
    private var closed = false

    /// Starts the bundle at `path` (mode 0644, as the summary and the report) with its header.
    package init(path: String, header: ResultBundle.Header) throws(FileSystemError) {
        self.path = path
        (descriptor, staged) = try FileSystem.beginStaging(in: FileSystem.parentDirectory(of: path), mode: 0o644)
        buffer.reserveCapacity(Self.flushSize + 4096)
        append(ResultBundle.line(ResultBundle.headerValue(header)))
    }

    deinit { discard() }

    /// Adds a payload's record, then its line; positions must increase, and the line must be one
    /// (``ResultBundle/isResultLine(_:)``).
    package func add(_ record: ResultBundle.Record) {
        precondition(record.position > lastPosition, "bundle records go in input order")
        precondition(ResultBundle.isResultLine(record.line), "a record's line is one JSON object without a control character")
        lastPosition = record.position
        records += 1
        append(ResultBundle.line(.object([(key: "position", value: .number(String(record.position))), (key: "data", value: record.data)])))
        append(record.line + [0x0A])
    }

    /// Adds an attachment and returns its index, for the records that name it.
    package func addAttachment(_ data: JSONValue) -> Int {
        let index = attachments
        attachments += 1
        append(ResultBundle.line(.object([(key: "attachment", value: .number(String(index))), (key: "data", value: data)])))
        return index
    }

    /// Writes the summary and the end line, closes the file and renames it into place.
    package func finish(summary: JSONValue?, input: ResultBundle.Input, finished: Timestamp) throws(FileSystemError) {
        if let summary { append(ResultBundle.line(.object([(key: "summary", value: summary)]))) }
        flush()
        if let failure { throw failure.naming(path) }
        let end = ResultBundle.End(
            records: records, attachments: attachments, input: input, finished: finished, bytes: written + buffer.count,
            crc32: check.hex)
        buffer += ResultBundle.line(ResultBundle.endValue(end))
        flush()
        closed = true
        FileSystem.closeDescriptor(descriptor)
        defer { staged.discard() }
        if let failure { throw failure.naming(path) }
        do throws(FileSystemError) {
            _ = try staged.publish(to: path, replace: true)
        } catch {
            throw error.naming(path)
        }
    }

    /// Drops an unfinished bundle: nothing is left under its temporary name, and nothing at `path` changes.
    package func discard() {
        guard !closed else { return }
        closed = true
        FileSystem.closeDescriptor(descriptor)
        staged.discard()
    }

    private static let flushSize = 256 * 1024

    private func append(_ line: [UInt8]) {
        line.withUnsafeBytes { check.add($0) }
        buffer += line
        if buffer.count >= Self.flushSize { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil {
            do throws(FileSystemError) {
                try buffer.withUnsafeBytes { bytes in
                    Result { () throws(FileSystemError) in try FileSystem.writeAll(descriptor, bytes, path: staged.temporaryPath) }
                }.get()
            } catch {
                failure = error
            }
        }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
