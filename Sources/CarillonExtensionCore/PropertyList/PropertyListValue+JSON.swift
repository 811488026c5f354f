extension PropertyListValue {
    /// The value as JSON, for output: dictionaries as objects (in order), dates as ISO 8601 strings
    /// (UTC, to the millisecond), data as base64 strings, a real that JSON cannot hold (NaN, ±∞) as its
    /// name in a string.
    package var json: JSONValue {
        switch self {
        case .string(let text): return .string(text)
        case .integer(let value): return .number(String(value))
        case .real(let value): return value.isFinite ? .number(String(value)) : .string(String(value))
        case .bool(let value): return .bool(value)
        case .date(let date): return .string(date.iso8601)
        case .data(let bytes): return .string(Base64.encode(bytes))
        case .array(let elements): return .array(elements.map(\.json))
        case .dictionary(let members): return .object(members.map { (key: $0.key, value: $0.value.json) })
        }
    }
}
