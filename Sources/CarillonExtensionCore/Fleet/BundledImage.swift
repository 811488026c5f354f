/// An attached image a result bundle holds for the report (SPEC §6c): written once, before the first
/// record that shows it, and read by a merge only when its page shows it. The keys of an attachment's
/// `data`, both ways, are this type's.
package struct BundledImage: Sendable, Equatable {
    package var type: ImageType
    package var bytes: [UInt8]

    package init(type: ImageType, bytes: [UInt8]) {
        self.type = type
        self.bytes = bytes
    }

    /// An attachment's `data` as written: the type and the bytes in base64.
    package var json: JSONValue {
        .object([(key: Key.type, value: .string(type.rawValue)), (key: Key.base64, value: .string(Base64.encode(bytes)))])
    }

    /// An attachment's `data` as read; nil when it is not what ``json`` writes.
    package init?(_ value: JSONValue) {
        guard case .string(let typeText)? = value[Key.type], let type = ImageType(rawValue: typeText),
            case .string(let text)? = value[Key.base64], let bytes = try? Base64.decode(text)
        else { return nil }
        self.init(type: type, bytes: bytes)
    }

    private enum Key {
        static let type = "type", base64 = "base64"
    }
}
