/// The man page `carillon-nse.1` in roff (the `man` macros): the tool, its options, every command
/// with its usage, arguments, options and exit statuses.
enum ManPage {
    static func page(_ tool: ToolReference) -> String {
        var lines = [
            #".\" Generated from the option declarations (Sources/CarillonCLI/Reference/ManPage.swift); do not edit."#,
            #".\" After changing a declaration: CARILLON_WRITE_FIXTURES=1 swift test --filter GeneratedReferenceTests"#,
            ".TH \(text(tool.name.uppercased())) 1 \"\" \"\(text(tool.name)) \(text(tool.version))\" \"User Commands\"",
            ".SH NAME", "\(text(tool.name)) \\- \(text(tool.summary))",
            ".SH SYNOPSIS", "\\fB\(text(tool.name))\\fR \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
            text(
                "Runs Carillon's Notification Service Extension logic on payload files, and the app's side of the receipt "
                    + "hand-off on its event queue. Each command is described below; \(tool.name) COMMAND --help also explains "
                    + "the command's output."),
            ".SH OPTIONS",
        ]
        lines += tool.options.flatMap(option)
        lines.append(".SH COMMANDS")
        for command in tool.commands {
            lines += [".SS \(text(command.name))", text(command.summary), ".PP", ".nf", usage(command.usage, tool: tool), ".fi"]
            for argument in command.arguments {
                lines += [".TP", "\\fI\(text(argument.usage))\\fR", text(argument.about)]
            }
            lines += [".PP", "Options:", ".RS"] + command.options.flatMap(option) + [".RE"]
            lines += [".PP", "Exit status:", ".RS"] + command.exitStatuses.flatMap(status) + [".RE"]
        }
        lines.append(".SH EXIT STATUS")
        lines += tool.exitStatuses.flatMap(status)
        lines += [
            ".SH SEE ALSO",
            text(
                "\(tool.name) COMMAND --help; the guides in the Documentation/ folder of the source, and its Reference/ pages, "
                    + "made from the same declarations as this page."),
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `.TP` with `--name VALUE` in bold and italic, then the help (with its default) and its discussion.
    static func option(_ option: OptionSpec) -> [String] {
        let value = option.valueName.map { " \\fI\(text($0))\\fR" } ?? ""
        return [".TP", "\\fB\(text(option.name))\\fR" + value, text(option.fullHelp)]
    }

    static func status(_ status: ExitStatus) -> [String] {
        [".TP", "\\fB\(status.code)\\fR", text(status.meaning)]
    }

    /// The usage line with the tool and command in bold.
    static func usage(_ line: String, tool: ToolReference) -> String {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        let head = words.prefix(2).joined(separator: " ")
        let rest = words.count > 2 ? " " + text(words[2]) : ""
        return "\\fB\(text(head))\\fR" + rest
    }

    /// Text as roff reads it literally: a backslash as `\e`, a hyphen as a minus sign (`\-`, so that
    /// options copy as typed), and a leading `.` or `'` kept from being read as a request.
    static func text(_ plain: String) -> String {
        var escaped = ""
        for character in plain {
            switch character {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            default: escaped.append(character)
            }
        }
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
