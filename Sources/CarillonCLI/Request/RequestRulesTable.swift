@_spi(Tooling) import CarillonExtensionCore

/// `Documentation/Requests.md`'s table of rules, generated from the core's catalogue
/// (``RequestRules/all``): each rule's name, what it says and its source, Apple's documents first; a rule
/// that rests on one developer's report says so. `RequestsDocumentationTests` keeps the page current.
enum RequestRulesTable {
    /// The lines that open and close the generated part of the page.
    static let start =
        "<!-- rules: generated from RequestRules.all; CARILLON_WRITE_FIXTURES=1 swift test --filter RequestsDocumentationTests -->"
    static let end = "<!-- end of rules -->"

    static func markdown() -> String {
        var lines = [start, "", "| rule | what it says | source |", "|---|---|---|"]
        for rule in RequestRules.all {
            let source = rule.source.url.isEmpty ? rule.source.title : "[\(rule.source.title)](\(rule.source.url))"
            let observation = rule.source.isObservation ? " — one developer's observation, not Apple's statement" : ""
            lines.append("| `\(rule.id)` | \(cell(rule.statement)) | \(cell(source))\(observation) |")
        }
        return (lines + ["", end]).joined(separator: "\n")
    }

    private static func cell(_ text: String) -> String {
        var escaped = ""
        for character in text { escaped += character == "|" ? "\\|" : String(character) }
        return escaped
    }
}
