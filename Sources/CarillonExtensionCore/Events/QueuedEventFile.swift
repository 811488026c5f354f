/// A queue file holding many events (format 2): what one enqueue writes, with one fsync for all of them.
///
/// On disk, `batch-<token>.events` (the token unique across processes), JSON Lines: a header, then one
/// self-contained line per event, each ending in a newline:
///
///     {"format":2,"events":2}\n
///     {"format":2,"sequence":17,"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000000","at":"2026-08-20T09:16:44.120Z"}\n
///     {"format":2,"sequence":18,"type":"opened","delivery_id":"01937b21-0000-7000-8000-000000000000","at":"2026-08-20T09:17:02.005Z"}\n
///
/// - the header's `events` is how many event lines follow: a file cut short at a line's end is seen;
/// - each line is a format-2 record with `sequence`, `type`, `delivery_id` and `at` as in format 1
///   (``QueuedEvent``); unknown members are ignored;
/// - one event per (type, delivery id) within the file; the writer's lock keeps one across files.
///
/// Decoding never gives up on a file's good lines because of a bad one: it returns the events it could
/// read and says what was wrong, and the queue decides (it sets the file aside and queues the good
/// events again). Pure: no file is read or written here.
@_spi(Tooling) public enum QueuedEventFile {
    static let formatVersion = 2
    static let fileExtension = ".events"
    static let namePrefix = "batch-"
    /// The most events one file is written with (an enqueue of more writes several).
    static let maximumEvents = 10_000
    /// The largest file read: room for ``maximumEvents`` lines of any length a line may have.
    static let maximumFileBytes = 16 * 1_048_576
    /// The largest line read (a format-1 event file's limit).
    static let maximumLineBytes = QueuedEvent.maximumFileBytes

    /// A new file's name: `batch-<token>.events`, never used before (pid, counter, random bits).
    static func newFileName() -> String {
        namePrefix + FileSystem.uniqueToken() + fileExtension
    }

    /// A visible name ending in `.events`.
    static func isFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(fileExtension)
    }

    /// The file's bytes: the header and one line per event, in the order given.
    public static func encode(_ events: [QueuedEvent]) -> [UInt8] {
        var bytes = RecordFile.encode(version: formatVersion, [(key: "events", value: .number(String(events.count)))])
        for queued in events { bytes += queued.encoded(version: formatVersion) }
        return bytes
    }

    /// What a file held: every event that could be read, in file order, and what was wrong.
    public struct Decoded: Sendable, Equatable {
        public var events: [QueuedEvent]
        /// Empty for a whole file; otherwise one message per problem (`line 3: truncated: …`).
        public var problems: [String]

        public var isWhole: Bool { problems.isEmpty }
    }

    /// Reads a file's bytes.
    ///
    /// - Throws: ``RecordError`` when the header is not a format-2 header: nothing in the file can be
    ///   trusted then (an unknown version may mean anything).
    public static func decode(_ bytes: [UInt8]) throws(RecordError) -> Decoded {
        if bytes.isEmpty { throw RecordError("empty file") }
        if bytes.count > maximumFileBytes {
            throw RecordError("\(bytes.count) bytes, more than a queue file can hold (\(maximumFileBytes))")
        }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            lines.append(bytes[start..<end])
            start = end
        }
        let declared: Int64
        do {
            let header = try RecordFile(parsing: lines[0], version: formatVersion, maximumBytes: maximumLineBytes)
            declared = try header.count("events")
        } catch {
            throw RecordError("header: \(error.message)")
        }

        var decoded = Decoded(events: [], problems: [])
        var seen = Set<EventKey>()
        for (offset, line) in lines.dropFirst().enumerated() {
            let number = offset + 2
            do throws(RecordError) {
                if line.count == 1 { throw RecordError("an empty line") }
                let queued: QueuedEvent
                if let canonical = canonicalLine(line) { queued = canonical } else { queued = try decodeLine(line) }
                guard seen.insert(EventKey(queued.event)).inserted else {
                    throw RecordError("a second \(queued.event.type.rawValue) event for \(queued.event.deliveryID); the first is kept")
                }
                decoded.events.append(queued)
            } catch {
                decoded.problems.append("line \(number): \(error.message)")
            }
        }
        let found = lines.count - 1
        if Int64(found) != declared {
            decoded.problems.append("the header says \(declared) events, the file has \(found) lines")
        }
        return decoded
    }

    /// A line exactly as ``encode(_:)`` writes it, read without a JSON parser (a queue of 10,000 events
    /// is read at every enqueue): nil for anything else, which ``decodeLine(_:)`` then reads. Where
    /// this gives an event, ``decodeLine(_:)`` gives the same one (tested, and fuzzed): the members are
    /// in the writer's order, the number has no sign or leading zero, the strings hold no escape or
    /// control character, and the id and time are checked by the same parsers.
    public static func canonicalLine(_ line: ArraySlice<UInt8>) -> QueuedEvent? {
        var reader = CanonicalReader(bytes: line)
        guard reader.literal(#"{"format":2,"sequence":"#), let sequence = reader.number(), reader.literal(#","type":""#),
            let typeText = reader.plainString(), let type = EventType(rawValue: typeText), reader.literal(#","delivery_id":""#),
            let idText = reader.plainString(), let id = DeliveryID(idText), reader.literal(#","at":""#),
            let atText = reader.plainString(), let at = Timestamp(iso8601: atText), reader.literal("}\n"), reader.atEnd
        else { return nil }
        return QueuedEvent(event: Event(type: type, deliveryID: id, at: at), sequence: sequence)
    }

    /// One event line.
    public static func decodeLine(_ line: [UInt8]) throws(RecordError) -> QueuedEvent {
        try decodeLine(line[...])
    }

    /// One event line, read in place from the file's bytes.
    public static func decodeLine(_ line: ArraySlice<UInt8>) throws(RecordError) -> QueuedEvent {
        try QueuedEvent(record: RecordFile(parsing: line, version: formatVersion, maximumBytes: maximumLineBytes))
    }
}

/// Reads the bytes of a canonical event line front to back (``QueuedEventFile/canonicalLine(_:)``).
private struct CanonicalReader {
    let bytes: ArraySlice<UInt8>
    var index: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var atEnd: Bool { index == bytes.endIndex }

    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        let matches = text.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }

    /// A non-negative integer as JSON writes it (no sign, no leading zero) that fits in an Int64.
    mutating func number() -> Int64? {
        let start = index
        var value: Int64 = 0
        while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        return value
    }

    /// The rest of a string whose opening quote was read, up to its closing quote (consumed): nil if it
    /// holds an escape, a control character or bytes that are not UTF-8.
    mutating func plainString() -> String? {
        let start = index
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(validating: bytes[start..<index - 1], as: UTF8.self)
            }
            guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }
}
