/// Why the bytes of a small versioned record file (a receipt, a queued event, the queue's counter) are
/// not a valid record, in words fit for a report line.
public struct RecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the bytes.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The shared shape of Carillon's small on-disk records: one compact JSON object, ending in a newline,
/// whose `"format"` member is a version number. Readers check the version first, so a later version
/// may change every other member; within a version, unknown members are ignored so that fields can
/// be added without a new version.
struct RecordFile {
    /// The members by name (duplicates were refused, so each name is unambiguous).
    private let members: [String: JSONValue]

    /// Parses and checks the envelope: not empty, not too large, one JSON object, a final newline, no
    /// duplicate member names, and `"format"` equal to `version`.
    ///
    /// - Throws: ``RecordError`` saying what is wrong, first problem first.
    init(parsing bytes: [UInt8], version: Int, maximumBytes: Int) throws(RecordError) {
        try self.init(parsing: bytes[...], version: version, maximumBytes: maximumBytes)
    }

    /// The same, on a part of a larger buffer (a line of a format-2 queue file), read in place.
    init(parsing bytes: ArraySlice<UInt8>, version: Int, maximumBytes: Int) throws(RecordError) {
        if bytes.isEmpty { throw RecordError("empty file") }
        if bytes.count > maximumBytes {
            throw RecordError("\(bytes.count) bytes, more than a record can hold (\(maximumBytes))")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            // A short write that somehow got the final name shows up as JSON ending early: say so plainly.
            let truncated = error.offset >= bytes.count || error.message.hasPrefix("unterminated")
            throw RecordError(truncated ? "truncated: \(error)" : "not valid JSON: \(error)")
        }
        guard case .object(let list) = value else { throw RecordError("not a JSON object but \(value.typeName)") }
        // The writer always ends a record with a newline; its absence means the bytes are not whole.
        guard bytes.last == UInt8(ascii: "\n") else { throw RecordError("truncated: no final newline") }

        var members: [String: JSONValue] = [:]
        for member in list {
            guard members.updateValue(member.value, forKey: member.key) == nil else {
                throw RecordError("duplicate member \"\(member.key)\"")
            }
        }
        self.members = members

        switch members["format"] {
        case nil:
            throw RecordError("no \"format\" version")
        case .number(let text)?:
            guard RecordFile.isInteger(text) else { throw RecordError("\"format\" \(text) is not a version number") }
            guard text == String(version) else { throw RecordError("unknown format version \(text)") }
        case let other?:
            throw RecordError("\"format\" is \(other.typeName), not a number")
        }
    }

    /// A required string member.
    func string(_ key: String) throws(RecordError) -> String {
        switch members[key] {
        case nil: throw RecordError("missing \"\(key)\"")
        case .string(let text)?: return text
        case let other?: throw RecordError("\"\(key)\" is \(other.typeName), not a string")
        }
    }

    /// A required non-negative integer member.
    func count(_ key: String) throws(RecordError) -> Int64 {
        switch members[key] {
        case nil: throw RecordError("missing \"\(key)\"")
        case .number(let text)?:
            guard RecordFile.isInteger(text), !text.hasPrefix("-"), let value = Int64(text) else {
                throw RecordError("\"\(key)\" \(text) is not a non-negative integer")
            }
            return value
        case let other?: throw RecordError("\"\(key)\" is \(other.typeName), not a number")
        }
    }

    /// A required ISO 8601 time member.
    func timestamp(_ key: String) throws(RecordError) -> Timestamp {
        let text = try string(key)
        guard let time = Timestamp(iso8601: text) else {
            throw RecordError("\"\(key)\" \(RecordFile.quote(text)) is not a time like 2026-08-20T09:16:44.120Z")
        }
        return time
    }

    /// Writes `members` (in order, after `"format": version`) as one line of compact JSON.
    static func encode(version: Int, _ members: [(key: String, value: JSONValue)]) -> [UInt8] {
        var text = JSONWriter.string(.object([(key: "format", value: .number(String(version)))] + members))
        text += "\n"
        return Array(text.utf8)
    }

    /// `text` as a JSON string, shortened: values in messages come from untrusted files.
    static func quote(_ text: String) -> String { Quoting.double(text, limit: 60) }

    private static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
