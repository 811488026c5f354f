/// What carillon-nse adds to a HAR under `_carillon` (format 1, DESIGN-replay §5.3), read and written
/// by this one type: every key is named here and nowhere else, each is decoded once when a file is
/// read (``init(_:)``) and encoded once when a recording is written (``json``). HAR readers ignore
/// `_` members, so a recording stays a HAR any viewer opens.
///
/// `log._carillon` is this type; each entry's `_carillon` is ``Entry``; the settings the recording was
/// made under are ``Options``; the connections are ``RecordedConnection``s (``connection(_:)``).
package struct HARCarillon: Sendable {
    /// The member's name, on the log and on each entry.
    package static let member = "_carillon"
    /// The format this type reads and writes.
    package static let format = 1

    /// When the download started, as written.
    package var recordedAt: String?
    /// The payload as delivered (alert text redacted unless secrets were kept).
    package var payload: JSONValue?
    /// The payload's size in bytes as read, and its SHA-256.
    package var payloadBytes: Int?
    package var payloadSHA256: String?
    /// The settings every download ran under, decoded once.
    package var options: Options?
    /// The libcurl the recording was made with ("libcurl/7.88.1 OpenSSL/3.0.17").
    package var libcurl: String?
    /// The secrets were kept, not redacted.
    package var secretsKept = false
    /// Every connection the entries name, with its TLS facts and the chain as sent.
    package var connections: [RecordedConnection] = []
    /// The verdict the live run came to: its line as printed, attachment paths dropped.
    package var verdict: JSONValue?
    /// A shared download's other payload: the file of the payload whose download it shared (nil: not
    /// shared; `.some(nil)`: shared, but that file is unknown).
    package var sharedWith: String??

    /// Nothing recorded yet.
    package init() {}

    /// `log._carillon` as read, every member's JSON type checked (a wrong one reads as absent, as a
    /// hand-edited or truncated recording may have it); nil when it is not an object.
    package init?(_ value: JSONValue?) {
        guard let value, value.isObject else { return nil }
        recordedAt = value["recorded_at"]?.stringValue
        payload = value["payload"].flatMap { $0.isObject ? $0 : nil }
        payloadBytes = Self.count(value["payload_bytes"])
        payloadSHA256 = value["payload_sha256"]?.stringValue
        options = value["options"].flatMap(Options.init)
        libcurl = value["environment"]?["libcurl"]?.stringValue
        secretsKept = value["secrets_kept"] == .bool(true)
        if case .array(let items)? = value["connections"] { connections = items.compactMap(Self.connection) }
        verdict = value["verdict"].flatMap { $0.isObject ? $0 : nil }
        if let shared = value["shared_with"] { sharedWith = .some(shared.stringValue) }
    }

    /// `log._carillon` as written, its members in the documented order.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("format", .number(String(Self.format))),
            ("recorded_at", recordedAt.map { .string($0) } ?? .null),
            ("payload", payload ?? .null),
            ("payload_bytes", Self.number(payloadBytes)),
            ("payload_sha256", payloadSHA256.map { .string($0) } ?? .null),
            ("options", options?.json ?? .null),
            ("environment", ["libcurl": libcurl.map { .string($0) } ?? .null]),
            ("secrets_kept", .bool(secretsKept)),
        ]
        if sharedWith == nil { members.append(("connections", .array(connections.map(Self.json)))) }
        members.append(("verdict", verdict ?? .null))
        if let sharedWith { members.append(("shared_with", sharedWith.map { .string($0) } ?? .null)) }
        return .object(members)
    }

    /// The App Transport Security settings the recording was made under, when its options say both.
    package var recordedSecurity: TransportSecurity? { options?.transportSecurity }

    /// The payload's `carillon.image`, when a string.
    package var imageURL: String? { payload?["carillon"]?["image"]?.stringValue }

    /// A non-negative whole number under 10^15, or nil (absent, −1, a fraction, not a number).
    static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number.isFinite, number >= 0, number < 1e15, number == number.rounded() else {
            return nil
        }
        return Int(number)
    }

    static func number(_ value: Int?) -> JSONValue {
        value.map { .number(String($0)) } ?? .null
    }

    /// Milliseconds with three decimals, as JSON number text (the trace's own form).
    static func milliseconds(_ value: Double) -> JSONValue {
        .number(JSONWriter.milliseconds(value))
    }
}
