/// A command's own part of a payload's card, shown after the outcome: a title and rows, each a term and
/// its lines (`replay` shows its replay object so). The card's extension point: a command adds sections
/// to its ``ReportEntry`` and the page is the same page.
struct ReportSection: Sendable {
    /// One row: a term and its values, one line each (none: "none").
    struct Row: Sendable {
        var term: String
        var lines: [String]
    }

    /// The heading, also the element's `data-section`.
    var title: String
    var rows: [Row]

    /// The section as HTML: every value a message (isolated, controls shown), never markup.
    var html: String {
        let name = HTMLEscaping.escape(title)
        var html = "<section class=\"card-extra\" data-section=\"\(name)\"><h3>\(name)</h3><dl class=\"outcome\">"
        for row in rows {
            let value = row.lines.isEmpty ? "none" : row.lines.map(HTMLEscaping.message).joined(separator: "<br>")
            html += "<dt>\(HTMLEscaping.escape(row.term))</dt><dd>\(value)</dd>"
        }
        return html + "</dl></section>"
    }
}
