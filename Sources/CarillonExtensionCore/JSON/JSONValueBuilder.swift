/// A ``JSONOutput`` that builds the ``JSONValue`` of what is written (the value ``JSONWriter`` would
/// write as the same text).
@_spi(Tooling) public struct JSONValueBuilder: JSONOutput {
    /// An object or array still open, with what it holds so far (and an object's next key).
    private enum Open {
        case object([(key: String, value: JSONValue)], key: String)
        case array([JSONValue])
    }

    private var open: [Open] = []
    /// The value written, once its last container is closed.
    public private(set) var value: JSONValue = .null

    public init() {}

    public mutating func beginObject() { open.append(.object([], key: "")) }

    public mutating func endObject() {
        guard case .object(let members, _)? = open.popLast() else { preconditionFailure("endObject outside an object") }
        add(.object(members))
    }

    public mutating func beginArray() { open.append(.array([])) }

    public mutating func endArray() {
        guard case .array(let elements)? = open.popLast() else { preconditionFailure("endArray outside an array") }
        add(.array(elements))
    }

    public mutating func key(_ key: String) {
        guard case .object(let members, _)? = open.popLast() else { preconditionFailure("a key outside an object") }
        open.append(.object(members, key: key))
    }

    public mutating func string(_ text: String) { add(.string(text)) }
    public mutating func number(_ text: String) { add(.number(text)) }
    public mutating func bool(_ flag: Bool) { add(.bool(flag)) }
    public mutating func null() { add(.null) }
    public mutating func value(_ value: JSONValue) { add(value) }

    private mutating func add(_ element: JSONValue) {
        switch open.popLast() {
        case nil: value = element
        case .object(var members, let key)?:
            members.append((key: key, value: element))
            open.append(.object(members, key: key))
        case .array(var elements)?:
            elements.append(element)
            open.append(.array(elements))
        }
    }
}
