/// How a value from the payload appears in a message: quoted, and shortened when very long so that a
/// hostile payload cannot flood the output.
enum Quoting {
    static let limit = 200

    /// `'text'`, shortened to 200 characters with an ellipsis.
    static func single(_ text: String) -> String { "'" + shortened(text) + "'" }

    /// `"text"`, as a JSON string value is written, shortened likewise.
    static func double(_ text: String) -> String { "\"" + shortened(text) + "\"" }

    private static func shortened(_ text: String) -> String {
        text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}
