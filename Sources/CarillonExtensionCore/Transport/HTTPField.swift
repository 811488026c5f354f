/// One HTTP header field, `Name: value`: the one type for a field wherever one appears, sent or received,
/// live, recorded or read from a capture (as apple/swift-http-types' `HTTPField`). Names keep the case
/// they were written in; they are compared without regard to case where a rule reads them.
public struct HTTPField: Sendable, Equatable {
    /// The field's name, as written (`User-Agent`, `content-type`).
    public var name: String
    /// Its value, as written.
    public var value: String

    /// A field of `name` with `value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
