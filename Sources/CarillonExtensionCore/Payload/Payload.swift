/// An APNs payload as the extension receives it: the original bytes, kept untouched so that a
/// fallback delivers them byte for byte, and their parsed JSON object.
public struct Payload: Sendable {
    /// APNs refuses payloads larger than this many bytes, counted as compact JSON (what a provider sends).
    public static let apnsMaximumBytes = 4096

    /// The bytes exactly as received.
    public let bytes: [UInt8]
    /// The parsed top-level object (the notification's `userInfo` on iOS).
    public let userInfo: JSONValue
    /// Things worth saying about the input that do not stop it being processed.
    public let warnings: [String]

    /// Why bytes are not a payload: not JSON, or JSON that is not an object.
    public struct InvalidPayload: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, in words.
        public var message: String
        public var description: String { message }
    }

    /// Parses bytes as an APNs payload.
    ///
    /// - Throws: ``InvalidPayload`` when the bytes are not a JSON document whose top level is an object.
    public init(bytes: [UInt8]) throws(InvalidPayload) {
        try self.init(bytes: bytes, measuresSize: true)
    }

    /// Parses bytes as an APNs payload; `measuresSize` false leaves APNs' size limit to whoever knows the
    /// bytes a request sends (a request's own verdict, SPEC §12), where the compact size says nothing.
    package init(bytes: [UInt8], measuresSize: Bool) throws(InvalidPayload) {
        var warnings: [String] = []
        var body = bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            body = bytes.dropFirst(3)
            warnings.append("starts with a UTF-8 byte order mark, which was ignored")
        }
        if bytes.isEmpty { throw InvalidPayload(message: "empty file, not a JSON object") }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw InvalidPayload(message: "not valid JSON: \(error)")
        }
        guard value.isObject else {
            throw InvalidPayload(message: "the JSON value is \(Payload.article(value.typeName)), not an object")
        }
        // The file's bytes bound the compact size: only a file over the limit is measured again.
        if measuresSize, bytes.count > Payload.apnsMaximumBytes,
            let warning = PayloadSize.warning(fileBytes: bytes.count, compactBytes: PayloadSize.compactByteCount(body))
        {
            warnings.append(warning)
        }
        Payload.collectDuplicateKeys(value, path: "", into: &warnings)
        self.bytes = bytes
        self.userInfo = value
        self.warnings = warnings
    }

    private static func article(_ typeName: String) -> String {
        ["array", "object"].contains(typeName) ? "an \(typeName)" : "a \(typeName)"
    }

    /// Duplicate keys are legal JSON but ambiguous; say so for the keys the extension reads (also used
    /// for the payloads of a Notification Center scan).
    static func collectDuplicateKeys(_ value: JSONValue, path: String, into warnings: inout [String]) {
        guard case .object(let members) = value else { return }
        // A small object is searched in place; a set (an allocation) only for a large one. The path is
        // written only for a duplicate.
        var seen = Set<String>()
        for (index, member) in members.enumerated() {
            let repeated =
                members.count <= 16 ? members[..<index].contains { $0.key == member.key } : !seen.insert(member.key).inserted
            if repeated {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                warnings.append("duplicate key '\(memberPath)'; the last one is used")
            }
        }
        for key in ["aps", "carillon"] where path.isEmpty {
            if let child = value[key] { collectDuplicateKeys(child, path: key, into: &warnings) }
        }
        if path == "aps", let alert = value["alert"] { collectDuplicateKeys(alert, path: "aps.alert", into: &warnings) }
    }
}
