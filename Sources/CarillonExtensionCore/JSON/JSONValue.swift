/// A JSON value as parsed from untrusted bytes.
///
/// Objects keep their members in document order (and any duplicate keys), numbers keep their exact
/// text, so nothing about the input is lost or reinterpreted. Lookups follow the common parsers' rule
/// that the last duplicate key wins.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// The number's text exactly as written (for example `1`, `1.0`, `-2e3`).
    case number(String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object's members in document order, duplicate keys included.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .number(let n):
            hasher.combine(2)
            hasher.combine(n)
        case .string(let s):
            hasher.combine(3)
            hasher.combine(s)
        case .array(let a):
            hasher.combine(4)
            hasher.combine(a)
        case .object(let members):
            hasher.combine(5)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// The member named `key` of an object (the last one if the key repeats); nil for other values.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// A short name of the value's JSON type, for messages: "object", "string", "number"...
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The string, or nil for any other kind of value.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// Whether this is an object.
    public var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The number's value as a `Double` (infinite for absurdly large exponents); nil for non-numbers.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }
}
