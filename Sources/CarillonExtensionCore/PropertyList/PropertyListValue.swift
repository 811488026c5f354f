/// A property list value, read from XML or binary (`bplist00`) by ``PropertyListReader``: the types an
/// Info.plist, a signature's entitlements and a provisioning profile use.
///
/// Dictionaries keep their members in file order (duplicates included); lookups take the last member of
/// a name, as ``JSONValue``'s do.
package enum PropertyListValue: Sendable, Equatable {
    /// `<string>`, or a binary ASCII or UTF-16 string.
    case string(String)
    /// `<integer>`: a signed 64-bit integer (a larger one is refused when read).
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`, to the millisecond.
    case date(Timestamp)
    /// `<data>`: the bytes, base64 decoded.
    case data([UInt8])
    /// `<array>`, in file order.
    case array([PropertyListValue])
    /// `<dict>`: its members in file order.
    case dictionary([(key: String, value: PropertyListValue)])

    package static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.real(let a), .real(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of a dictionary (the last one if the name repeats); nil for other values.
    package subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The string, or nil for another type.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The Boolean, or nil for another type.
    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The date, or nil for another type.
    package var date: Timestamp? {
        if case .date(let value) = self { return value }
        return nil
    }

    /// The array's elements, or nil for another type.
    package var array: [PropertyListValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The dictionary's members, or nil for another type.
    package var members: [(key: String, value: PropertyListValue)]? {
        if case .dictionary(let members) = self { return members }
        return nil
    }

    /// The strings of an array of strings (other elements skipped), or of a single string; nil otherwise.
    package var strings: [String]? {
        switch self {
        case .string(let text): return [text]
        case .array(let elements): return elements.compactMap(\.string)
        default: return nil
        }
    }

    /// The type's name as the XML form writes it (`string`, `dict`…), for a message.
    package var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .real: return "real"
        case .bool(let value): return value ? "true" : "false"
        case .date: return "date"
        case .data: return "data"
        case .array: return "array"
        case .dictionary: return "dict"
        }
    }
}
