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
            var index = 1  // line 1 is the header, never a record
            while index < all.count - 1 {
                let (line, number) = all[index]
                index += 1
                guard line.starts(with: ResultBundleFile.Records.recordPrefix) else { continue }
                // The scanner has checked that a line follows; here it is parsed too, as a merge would not.
                let resultLine = all[index].line
                guard case .object? = try? JSONParser.parse(resultLine) else {
                    throw ResultBundleError("a record's line that is not one JSON object", line: number + 1)
                }
                records.append(try ResultBundle.record(line, number: number, resultLine: resultLine))
                index += 1
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
