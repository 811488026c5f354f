@_spi(Tooling) import CarillonExtensionCore

/// `replay --format text`: the lines after process's block (``TextBlock``) that say where the verdict
/// came from and what could not be checked, from the same `replay` object the JSON line carries.
enum ReplayText {
    /// "  replay carillon (file.har, entries 0, 1)", then one line per check not made and per note.
    static func lines(_ object: JSONValue) -> String {
        let entries: [String] =
            if case .array(let items)? = object["entries"] { items.compactMap { $0.doubleValue.map { String(Int($0)) } } } else { [] }
        var lines = [
            "  replay \(object["source"]?.stringValue ?? "") (\(object["file"]?.stringValue ?? "")"
                + (entries.isEmpty ? ")" : ", entries \(entries.joined(separator: ", ")))")
        ]
        if case .array(let skipped)? = object["not_checked"] {
            for item in skipped {
                lines.append("  not checked: \(item["check"]?.stringValue ?? "") — \(item["why"]?.stringValue ?? "")")
            }
        }
        if case .array(let notes)? = object["notes"] {
            for note in notes { lines.append("  note: \(note.stringValue ?? "")") }
        }
        return lines.map(Quoting.display).joined(separator: "\n") + "\n"
    }
}
