/// The command reference in Markdown: an index page, and a page per command with its usage, arguments,
/// option table and exit statuses.
enum MarkdownReference {
    /// The lines under each page's title: where it comes from, and how to make it again.
    static let provenance =
        "Generated from the option declarations (`Sources/CarillonCLI/Reference/`); do not edit. After changing a\n"
        + "declaration: `CARILLON_WRITE_FIXTURES=1 swift test --filter GeneratedReferenceTests`."

    /// The guide page (in `Documentation/`) that tells each command's story.
    static let guides = [
        "process": "Process.md", "check": "Process.md", "drain": "Receipts.md", "open": "Receipts.md", "present": "Receipts.md",
        "scan": "Receipts.md",
        "batches": "Receipts.md", "upload": "Upload.md",
    ]

    /// The file name of a command's page: `process.md`.
    static func fileName(_ command: CommandReference) -> String { command.name + ".md" }

    /// `Documentation/Reference/README.md`: the commands, the global options and statuses, and the other
    /// forms of the same reference.
    static func index(_ tool: ToolReference) -> String {
        var lines = [
            "# Command reference", "", "[← all pages](../README.md)", "", provenance, "",
            "`\(tool.name)` \(tool.version): \(escape(tool.summary))", "", "```", "\(tool.name) <command> [options] [arguments]", "```",
            "", "| command | what it does |", "|---|---|",
        ]
        lines += tool.commands.map { "| [`\($0.name)`](\(fileName($0))) | \(escape($0.summary)) |" }
        lines += ["", "## Options", ""] + optionTable(tool.options)
        lines += ["", "## Exit status", ""] + statusTable(tool.exitStatuses)
        lines += [
            "", "Each command's page says when it ends with which status.", "", "## The same reference elsewhere", "",
            "- `\(tool.name) --help` and `\(tool.name) COMMAND --help`, which also explain each command's output.",
            "- The man page [`carillon-nse.1`](../carillon-nse.1): `man -l Documentation/carillon-nse.1`.",
            "- Shell completions: `\(tool.name) completions bash|zsh|fish` prints the script (see [`completions`](completions.md));",
            "  the same scripts are kept in [`Completions/`](../Completions/).", "",
        ]
        return lines.joined(separator: "\n")
    }

    /// A command's page.
    static func page(_ command: CommandReference, tool: ToolReference) -> String {
        var lines = [
            "# \(tool.name) \(command.name)", "", "[← command reference](README.md)", "", provenance, "", escape(command.summary), "",
            "```", command.usage, "```",
        ]
        if !command.arguments.isEmpty {
            lines += ["", "| argument | what it is |", "|---|---|"]
            lines += command.arguments.map { "| `\(cell($0.usage))` | \(escape($0.about)) |" }
        }
        lines += ["", "## Options", ""] + optionTable(command.options)
        lines += ["", "## Exit status", ""] + statusTable(command.exitStatuses)
        var more = "The whole description, with the output's fields: `\(tool.name) \(command.name) --help`."
        if let guide = guides[command.name] { more += "\nThe guide: [\(guide)](../\(guide))." }
        lines += ["", more, ""]
        return lines.joined(separator: "\n")
    }

    /// The option table: name, value, default, and help with its discussion, in declaration order.
    static func optionTable(_ options: [OptionSpec]) -> [String] {
        ["| option | value | default | what it does |", "|---|---|---|---|"]
            + options.map { option in
                let value = option.valueName.map { "`\(cell($0))`" } ?? ""
                let shown =
                    option.defaultValue.map { "`\(cell($0))`" }
                    ?? (option.isRequired ? "required" : (option.repeatable ? "repeatable" : ""))
                return "| `\(option.name)` | \(value) | \(shown) | \(escape(option.fullAbout)) |"
            }
    }

    static func statusTable(_ statuses: [ExitStatus]) -> [String] {
        ["| status | when |", "|---|---|"] + statuses.map { "| \($0.code) | \(escape($0.meaning)) |" }
    }

    /// Prose for a table cell: Markdown's emphasis, HTML and the cell separator escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\`*_<>|[]".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Code-span text for a table cell: only the cell separator needs escaping there.
    static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }
}
