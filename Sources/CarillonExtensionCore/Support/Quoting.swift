/// How a value from the payload appears in a message: quoted, and shortened when very long so that a
/// hostile payload cannot flood the output.
enum Quoting {
    static let limit = 200

    /// `'text'`, shortened to `limit` characters with an ellipsis.
    static func single(_ text: String, limit: Int = limit) -> String { "'" + shortened(text, limit) + "'" }

    /// `"text"` written as a JSON string (control characters escaped), shortened likewise.
    static func double(_ text: String, limit: Int = limit) -> String {
        JSONWriter.string(.string(shortened(text, limit)))
    }

    private static func shortened(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
