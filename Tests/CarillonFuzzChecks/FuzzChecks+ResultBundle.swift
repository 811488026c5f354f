@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzResultBundle

    /// The result bundle reader (`ResultBundle.Contents`, the same checks and parse as `ResultBundleFile`):
    /// every input is read or refused with a message; what is read keeps its bounds (positions strictly
    /// increasing and inside the input, counts as the end line says); no proper prefix of a bundle that is
    /// read is read (a bundle cut short at any byte is refused: the last byte, half, and a byte chosen by
    /// the input); and, for one input in 16, the bundle written again by `ResultBundleWriter` and read
    /// from its file reads to the same contents. Each record's `data` that ``BundledPayload`` reads, and
    /// each attachment ``BundledImage`` reads, is written again by them and reads back the same.
    public static func resultBundle(_ bytes: [UInt8]) throws(FuzzFailure) {
        let contents: ResultBundle.Contents
        do throws(ResultBundleError) {
            contents = try ResultBundle.Contents(bytes: bytes)
        } catch {
            try check(!error.message.isEmpty, "a bundle refused without a message")
            return
        }
        let positions = contents.records.map(\.position)
        try check(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "positions not strictly increasing: \(positions)")
        try check(positions.allSatisfy { $0 >= 0 && $0 < contents.end.input.payloads }, "a position outside the input")
        try check(contents.end.records == positions.count && contents.end.attachments == contents.attachments.count, "counts differ")
        for length in Set([bytes.count - 1, bytes.count / 2, Int(bytes.last ?? 0) % max(bytes.count, 1)]) where length < bytes.count {
            try check((try? ResultBundle.Contents(bytes: Array(bytes[..<length]))) == nil, "a bundle cut to \(length) bytes was read")
        }
        for record in contents.records {
            guard let payload = BundledPayload(record.data) else { continue }
            try check(BundledPayload(payload.json) == payload, "a record's data reads back otherwise than it was written")
        }
        for attachment in contents.attachments {
            guard let image = BundledImage(attachment) else { continue }
            try check(BundledImage(image.json) == image, "an attachment reads back otherwise than it was written")
        }
        guard FuzzSampling.oneIn(16, bytes) else { return }
        try rewrite(contents)
    }

    /// Writes `contents` again through the writer, then reads the file back.
    private static func rewrite(_ contents: ResultBundle.Contents) throws(FuzzFailure) {
        let path = FuzzScratch.path(FuzzScratch.uniqueName("bundle"))
        defer { FuzzScratch.remove(path) }
        do throws(FileSystemError) {
            let writer = try ResultBundleWriter(path: path, header: contents.header)
            for attachment in contents.attachments { _ = writer.addAttachment(attachment) }
            for record in contents.records { writer.add(record) }
            try writer.finish(summary: contents.summary, input: contents.end.input, finished: contents.end.finished)
        } catch {
            throw FuzzFailure(message: "a bundle that was read cannot be written again: \(error)")
        }
        let file: ResultBundleFile
        var read: [ResultBundle.Record] = []
        var attachments: [JSONValue] = []
        do throws(ResultBundleError) {
            file = try ResultBundleFile.open(path)
            let records = try file.records()
            while let record = try records.next() { read.append(record) }
            for index in contents.attachments.indices { attachments.append(try file.attachment(index)) }
        } catch {
            throw FuzzFailure(message: "a bundle written again is refused: \(error)")
        }
        try check(file.header == contents.header && file.positions == contents.records.map(\.position), "the file reads differently")
        try check(file.summary == contents.summary && file.end.input == contents.end.input, "the file's summary or input differs")
        try check(read == contents.records && attachments == contents.attachments, "the file's records or attachments differ")
    }
}
