/// A notification still shown in Notification Center, as the app's scan finds it: `UNNotification.date`
/// (when it was delivered) and the request's `userInfo`.
///
/// The scan's input gives one per line of JSON Lines, `{"date": ISO8601, "payload": {...}}`; ``parse(line:)``
/// reads one line and is a pure function.
public struct DeliveredNotification: Sendable, Equatable {
    /// The longest line read, in bytes (after a final `\r`): a payload file's limit, far above APNs' 4 KiB.
    public static let maximumLineBytes = 1_048_576

    /// `UNNotification.date`: when the notification was delivered.
    public var date: Timestamp
    /// The request's `userInfo`: the payload as sent to APNs.
    public var userInfo: JSONValue
    /// What was odd but did not stop the line being read (a byte order mark, duplicate keys in the payload).
    public var warnings: [String]

    /// A delivered notification with its date and payload.
    public init(date: Timestamp, userInfo: JSONValue, warnings: [String] = []) {
        self.date = date
        self.userInfo = userInfo
        self.warnings = warnings
    }

    /// What one line of the scan's input is.
    public enum Line: Sendable, Equatable {
        /// Empty, or only spaces and tabs: skipped, and not an error.
        case blank
        /// A delivered notification, read whole.
        case notification(DeliveredNotification)
        /// Not a delivered notification; the text says why (without the file name or line number).
        case invalid(String)
    }

    /// Reads one line (without its `\n`; a final `\r` is dropped, so CRLF files read the same).
    ///
    /// The line must be a JSON object with a `date` string in ISO 8601 (as ``Timestamp/init(iso8601:)``
    /// accepts: an offset or `Z`, at most milliseconds) and a `payload` object. Other members are ignored.
    /// A `date` or `payload` given twice is refused (which one the device meant is unknown); duplicate keys
    /// inside the payload are warnings, as for a payload file (the last one is used).
    public static func parse(line: some Collection<UInt8>) -> Line {
        // Read in place when the line is already (part of) an array: the scan's lines are slices of its input.
        if let slice = line as? ArraySlice<UInt8> { return parse(slice) }
        if let array = line as? [UInt8] { return parse(array[...]) }
        return parse(Array(line)[...])
    }

    private static func parse(_ line: ArraySlice<UInt8>) -> Line {
        let bytes = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return .blank }
        guard bytes.count <= maximumLineBytes else {
            return .invalid("line is \(bytes.count) bytes, over the \(maximumLineBytes)-byte limit; not read")
        }
        var warnings: [String] = []
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            body = bytes.dropFirst(3)
            warnings.append("starts with a UTF-8 byte order mark, which was ignored")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return .invalid("not valid JSON: \(error.message) at column \(error.column)")
        }
        guard case .object(let members) = value else {
            return .invalid(
                "the JSON value is \(value.typeName == "array" ? "an" : "a") \(value.typeName), not an object {\"date\": ..., \"payload\": {...}}"
            )
        }
        for key in ["date", "payload"] where members.filter({ $0.key == key }).count > 1 {
            return .invalid("\"\(key)\" is given more than once; which one is meant is ambiguous")
        }

        let date: Timestamp
        switch value["date"] {
        case nil:
            return .invalid("no \"date\" member (the notification's delivery date, ISO 8601)")
        case .string(let text)?:
            guard let parsed = Timestamp(iso8601: text) else {
                return .invalid("\"date\" \(Quoting.double(text)) is not an ISO 8601 time (\(Timestamp.iso8601Form))")
            }
            date = parsed
        case let other?:
            return .invalid("\"date\" is \(other.typeName), not an ISO 8601 string")
        }

        guard let payload = value["payload"] else {
            return .invalid("no \"payload\" member (the notification's userInfo)")
        }
        guard payload.isObject else {
            return .invalid("\"payload\" is \(payload.typeName), not an object")
        }
        var payloadWarnings: [String] = []
        Payload.collectDuplicateKeys(payload, path: "", into: &payloadWarnings)
        warnings += payloadWarnings.map { "payload: \($0)" }
        return .notification(DeliveredNotification(date: date, userInfo: payload, warnings: warnings))
    }
}
