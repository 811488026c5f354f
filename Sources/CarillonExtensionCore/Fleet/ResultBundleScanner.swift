/// The first read of a bundle, line by line: the header parsed, every other line recognised by its first
/// member (a record's position, an attachment's index) without parsing it, the order checked, and the
/// bytes checked (CRC-32) up to the last line, which must be the end line whose count and CRC match them.
/// What it finds is what a merge needs before it writes anything: whether the file is whole, and which
/// positions it holds.
struct ResultBundleScanner: ~Copyable {
    /// What a whole bundle holds, found before any record is parsed.
    struct Found {
        var header: ResultBundle.Header
        var end: ResultBundle.End
        var summary: JSONValue?
        /// Each record's position, in file order (strictly increasing).
        var positions: [Int]
        /// Each attachment line's offset and length (without its LF), by index.
        var attachments: [(offset: Int, length: Int, line: Int)]
    }

    private var check = ResultBundle.Check()
    private var held: (line: [UInt8], number: Int, offset: Int)?
    private var header: ResultBundle.Header?
    private var summary: JSONValue?
    private var positions: [Int] = []
    private var attachments: [(offset: Int, length: Int, line: Int)] = []
    /// Whether the line before was a record, whose result line this one must be.
    private var awaitingResultLine = false

    init() {}

    /// Takes the next line (without its LF): the one before it is now known not to be the last.
    mutating func take(_ line: [UInt8], number: Int, offset: Int) throws(ResultBundleError) {
        if let previous = held {
            try classify(previous.line, number: previous.number, offset: previous.offset)
            previous.line.withUnsafeBytes { check.add($0) }
            withUnsafeBytes(of: UInt8(0x0A)) { check.add($0) }
        }
        held = (line, number, offset)
    }

    /// The last line must be the end line, and agree with everything before it.
    consuming func finish() throws(ResultBundleError) -> Found {
        guard let last = held else { throw ResultBundleError("empty: not a carillon-nse result bundle") }
        let value = try? ResultBundle.parse(last.line, number: last.number)
        guard let value, let end = try ResultBundle.end(value, line: last.number) else {
            if last.number == 1 { _ = try ResultBundle.headerLine(last.line) }
            throw ResultBundleError(
                "cut short: its last line is not the end line (its shard's run did not finish, or the copy was cut)", line: last.number)
        }
        guard let header else { throw ResultBundleError("cut short: an end line with no header before it", line: last.number) }
        guard !awaitingResultLine else { throw ResultBundleError("a record without its line", line: last.number - 1) }
        let crc32 = check.hex
        guard end.bytes == last.offset, end.crc32 == crc32 else {
            throw ResultBundleError(
                "damaged: its end line is for \(end.bytes) bytes of CRC-32 \(end.crc32), and \(last.offset) bytes of \(crc32)"
                    + " come before it",
                line: last.number)
        }
        guard end.records == positions.count, end.attachments == attachments.count else {
            throw ResultBundleError(
                "damaged: its end line counts \(end.records) records and \(end.attachments) attachments; it holds \(positions.count)"
                    + " and \(attachments.count)", line: last.number)
        }
        if let last = positions.last, last >= end.input.payloads {
            throw ResultBundleError("a record at position \(last), past the input's \(end.input.payloads) payloads")
        }
        return Found(header: header, end: end, summary: summary, positions: positions, attachments: attachments)
    }

    /// A line known not to be the last: the header first, then records and attachments, then at most one summary.
    private mutating func classify(_ line: [UInt8], number: Int, offset: Int) throws(ResultBundleError) {
        if number == 1 {
            header = try ResultBundle.headerLine(line)
            return
        }
        if awaitingResultLine {
            guard ResultBundle.isResultLine(line) else {
                throw ResultBundleError("a record's line that is not one JSON object", line: number)
            }
            awaitingResultLine = false
            return
        }
        if let position = Self.leading(line, "{\"position\":") {
            guard summary == nil else { throw ResultBundleError("a record after the summary", line: number) }
            guard position > (positions.last ?? -1) else {
                throw ResultBundleError("a record at position \(position), not after position \(positions.last ?? 0)", line: number)
            }
            positions.append(position)
            awaitingResultLine = true
        } else if let index = Self.leading(line, "{\"attachment\":") {
            guard summary == nil else { throw ResultBundleError("an attachment after the summary", line: number) }
            guard index == attachments.count else {
                throw ResultBundleError("attachment \(index) where attachment \(attachments.count) comes next", line: number)
            }
            attachments.append((offset, line.count, number))
        } else if Self.starts(line, "{\"summary\":") {
            guard summary == nil else { throw ResultBundleError("a second summary", line: number) }
            let value = try ResultBundle.parse(line, number: number)
            guard case .object(let members) = value, members.count == 1 else {
                throw ResultBundleError("a summary line with more than the summary", line: number)
            }
            summary = members[0].value
        } else if Self.starts(line, "{\"end\":") {
            throw ResultBundleError("an end line before the last line", line: number)
        } else {
            throw ResultBundleError("not a line of a result bundle (a header, record, attachment, summary or end)", line: number)
        }
    }

    /// The count after `prefix` (digits up to a comma), or nil when the line does not start so.
    private static func leading(_ line: [UInt8], _ prefix: StaticString) -> Int? {
        guard starts(line, prefix) else { return nil }
        let digits = line[prefix.utf8CodeUnitCount...].prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard digits.endIndex < line.count, line[digits.endIndex] == UInt8(ascii: ",") else { return nil }
        return ResultBundle.number(digits)
    }

    private static func starts(_ line: [UInt8], _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return prefix.withUTF8Buffer { buffer in buffer.elementsEqual(line[0..<count]) }
    }
}
