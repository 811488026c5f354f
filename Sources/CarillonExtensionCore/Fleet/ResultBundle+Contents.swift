extension ResultBundle {
    /// A whole bundle read from memory, every line parsed: the same checks and the same parse as
    /// ``ResultBundleFile`` (a bundle a merge takes, this takes), for tests and the fuzz target.
    package struct Contents: Sendable, Equatable {
        package var header: Header
        package var end: End
        package var summary: JSONValue?
        package var records: [Record]
        package var attachments: [JSONValue]

        /// Reads `bytes` as a bundle file; throws what ``ResultBundleFile/open(_:)`` would.
        package init(bytes: [UInt8]) throws(ResultBundleError) {
            var lines = ResultBundleLines()
            var scanner = ResultBundleScanner()
            var all: [(line: [UInt8], number: Int)] = []
            try bytes.withUnsafeBufferPointer { (buffer) throws(ResultBundleError) in
                try lines.feed(buffer) { (line, number, offset) throws(ResultBundleError) in
                    try scanner.take(line, number: number, offset: offset)
                    all.append((line, number))
                }
            }
            try lines.finish()
            let found = try scanner.finish()
            header = found.header
            end = found.end
            summary = found.summary
            records = []
            for (line, number) in all where line.starts(with: ResultBundleFile.Records.recordPrefix) {
                records.append(try ResultBundle.record(line, number: number))
            }
            attachments = []
            for (index, attachment) in found.attachments.enumerated() {
                attachments.append(try ResultBundle.attachment(all[attachment.line - 1].line, number: attachment.line, index: index))
            }
            guard records.map(\.position) == found.positions else {
                throw ResultBundleError("a record whose position is not the one its line starts with")
            }
        }
    }
}
