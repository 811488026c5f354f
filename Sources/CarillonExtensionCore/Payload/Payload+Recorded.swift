extension Payload {
    /// A payload kept as JSON (a recording's `log._carillon.payload`): its bytes are the compact JSON
    /// of `value`, written once, never parsed again. Nil when `value` is not an object.
    package init?(recorded value: JSONValue) {
        guard value.isObject else { return nil }
        var warnings: [String] = []
        Payload.collectDuplicateKeys(value, path: "", into: &warnings)
        bytes = Array(JSONWriter.string(value).utf8)
        userInfo = value
        self.warnings = warnings
    }
}
