/// Whether iOS runs the service extension for a payload, decided as iOS does, with the reason.
@_spi(Tooling) public enum Routing {
    /// The alert keys that make a notification display something.
    public static let alertKeys = ["title", "subtitle", "body", "title-loc-key", "loc-key"]

    /// Decides routing from the payload's top-level object.
    ///
    /// Returns nil when the extension runs: `aps` is an object, `aps.mutable-content` is the number 1,
    /// and the alert displays something. Otherwise the outcome (`not-mutable` or `no-alert`) says the
    /// first rule that failed.
    public static func decide(_ userInfo: JSONValue) -> Outcome? {
        guard let aps = userInfo["aps"] else {
            return Outcome(.notMutable, "no 'aps' key, so no aps.mutable-content")
        }
        guard aps.isObject else {
            return Outcome(.notMutable, "'aps' is \(aps.typeName), not an object")
        }
        switch aps["mutable-content"] {
        case nil:
            return Outcome(.notMutable, "aps.mutable-content is absent")
        case .number(let text)? where Double(text) == 1:
            break
        case .number(let text)?:
            return Outcome(.notMutable, "aps.mutable-content is \(text), not 1")
        case .string(let text)?:
            return Outcome(.notMutable, "aps.mutable-content is the string \(Quoting.double(text)), not the number 1")
        case .bool(let flag)?:
            return Outcome(.notMutable, "aps.mutable-content is the boolean \(flag), not the number 1")
        case let other?:
            return Outcome(.notMutable, "aps.mutable-content is \(other.typeName), not the number 1")
        }
        switch aps["alert"] {
        case nil:
            return Outcome(.noAlert, "aps.alert is absent: a silent push never reaches the extension")
        case .string(let text)?:
            if text.isEmpty { return Outcome(.noAlert, "aps.alert is an empty string") }
        case .object?:
            let alert = aps["alert"]!
            let displayable = alertKeys.contains { key in
                if case .string(let text)? = alert[key], !text.isEmpty { return true }
                return false
            }
            if !displayable {
                return Outcome(.noAlert, "aps.alert has none of \(alertKeys.joined(separator: ", ")) as a non-empty string")
            }
        case let other?:
            return Outcome(.noAlert, "aps.alert is \(other.typeName), not a string or an object")
        }
        return nil
    }
}
