/// A bundle on disk, read as a merge needs it: first checked whole (``open(_:)``: the header, every
/// record's position, where each attachment is, the summary, the end line and its check) without
/// parsing a record, then its records read one at a time in order (``records()``) and an attachment
/// read when it is wanted (``attachment(_:)``). Memory stays at one line, whatever the file's length.
package struct ResultBundleFile: Sendable {
    package let path: String
    package let header: ResultBundle.Header
    package let end: ResultBundle.End
    /// The shard's per-image summary, as its writer left it.
    package let summary: JSONValue?
    /// Each record's position over the whole input, in file order (strictly increasing).
    package let positions: [Int]
    private let attachmentLines: [(offset: Int, length: Int, line: Int)]

    /// Reads and checks the whole file: a bundle cut short at any byte, damaged, or not a bundle throws.
    package static func open(_ path: String) throws(ResultBundleError) -> ResultBundleFile {
        var lines = ResultBundleLines()
        var scanner = ResultBundleScanner()
        try read(path) { (chunk) throws(ResultBundleError) in
            try lines.feed(chunk) { (line, number, offset) throws(ResultBundleError) in
                try scanner.take(line, number: number, offset: offset)
            }
            return true
        }
        try lines.finish()
        let found = try scanner.finish()
        return ResultBundleFile(
            path: path, header: found.header, end: found.end, summary: found.summary, positions: found.positions,
            attachmentLines: found.attachments)
    }

    /// Passes the file's chunks to `body` until the end or until it returns false; a read that fails, or
    /// a file that is not a regular one, is a bundle error.
    fileprivate static func read(
        _ path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(ResultBundleError) -> Bool
    ) throws(ResultBundleError) {
        var failure: ResultBundleError?
        do throws(FileSystemError) {
            try FileSystem.readChunks(ofRegularFile: path) { (chunk) throws(FileSystemError) -> Bool in
                do throws(ResultBundleError) {
                    return try body(chunk)
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            throw ResultBundleError("cannot read: \(error.reason)")
        }
        if let failure { throw failure }
    }

    /// The records in file order, each parsed when it is reached (``Records/next()``).
    package func records() throws(ResultBundleError) -> Records { try Records(path: path) }

    /// Attachment `index` (0 ≤ index < ``ResultBundle/End/attachments``), read from its place in the file.
    package func attachment(_ index: Int) throws(ResultBundleError) -> JSONValue {
        guard attachmentLines.indices.contains(index) else { throw ResultBundleError("no attachment \(index)") }
        let (offset, length, line) = attachmentLines[index]
        let bytes: [UInt8]
        do throws(FileSystemError) {
            bytes = try FileSystem.readPiece(of: path, at: offset, count: length)
        } catch {
            throw ResultBundleError("cannot read attachment \(index): \(error.reason)", line: line)
        }
        return try ResultBundle.attachment(bytes, number: line, index: index)
    }

    /// The records of a bundle, one line at a time, pulled: a merge reads N bundles side by side.
    package final class Records {
        private let path: String
        private let descriptor: Int32
        private var lines = ResultBundleLines()
        private var pending: [(line: [UInt8], number: Int)] = []
        private var cursor = 0
        private var ended = false
        private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

        init(path: String) throws(ResultBundleError) {
            self.path = path
            do throws(FileSystemError) {
                descriptor = try FileSystem.openForStreaming(path, policy: .regularFile)
            } catch {
                throw ResultBundleError("cannot read: \(error.reason)")
            }
        }

        deinit {
            FileSystem.closeDescriptor(descriptor)
            chunk.deallocate()
        }

        /// The next record, with its line, or nil after the last.
        package func next() throws(ResultBundleError) -> ResultBundle.Record? {
            while let (line, number) = try nextLine() {
                guard number > 1, line.starts(with: Self.recordPrefix) else { continue }
                guard let (resultLine, _) = try nextLine() else { throw ResultBundleError("a record without its line", line: number) }
                return try ResultBundle.record(line, number: number, resultLine: resultLine)
            }
            return nil
        }

        private func nextLine() throws(ResultBundleError) -> (line: [UInt8], number: Int)? {
            while true {
                if cursor < pending.count {
                    cursor += 1
                    return pending[cursor - 1]
                }
                pending.removeAll(keepingCapacity: true)
                cursor = 0
                guard !ended else { return nil }
                try readChunk()
            }
        }

        private func readChunk() throws(ResultBundleError) {
            let count: Int
            do throws(FileSystemError) {
                count = try FileSystem.readSome(descriptor, into: chunk, path: path)
            } catch {
                throw ResultBundleError("cannot read: \(error.reason)")
            }
            if count == 0 {
                ended = true
                try lines.finish()
                return
            }
            let bytes = UnsafeBufferPointer(start: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
            var taken: [(line: [UInt8], number: Int)] = []
            try lines.feed(bytes) { (line, number, _) throws(ResultBundleError) in taken.append((line, number)) }
            pending = taken
        }

        static let recordPrefix = Array("{\"position\":".utf8)
    }
}
