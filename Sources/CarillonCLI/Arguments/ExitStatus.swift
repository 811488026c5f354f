/// One exit status a command can end with, and when: `--help`, the reference pages and the man page
/// print the same table.
struct ExitStatus: Sendable, Equatable {
    var code: Int32
    /// When the command ends with it, as a sentence.
    var meaning: String

    /// The `--help` section: "Exit status:" and one wrapped entry per status.
    static func help(_ statuses: [ExitStatus], width: Int = 100) -> String {
        let entries = statuses.map { status in
            let label = "  " + String(status.code)
            let indent = String(repeating: " ", count: 6)
            let lines = TextWrap.lines(status.meaning, width: width - indent.count)
            return lines.enumerated().map { index, line in
                (index == 0 ? label + String(repeating: " ", count: indent.count - label.count) : indent) + line
            }.joined(separator: "\n")
        }
        return "Exit status:\n" + entries.joined(separator: "\n")
    }
}
