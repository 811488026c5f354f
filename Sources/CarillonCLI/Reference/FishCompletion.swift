/// The fish completion script: one `complete` line per command, option and argument, from the declarations.
enum FishCompletion {
    static func script(_ tool: ToolReference) -> String {
        let prefix = "__" + tool.name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        let complete = "complete -c \(tool.name)"
        var lines = [
            "# fish completion for \(tool.name), generated from its option declarations: \(tool.name) completions fish",
            "# Use: save it as ~/.config/fish/completions/\(tool.name).fish",
            "",
            "# Whether no command is on the line yet.",
            "function \(prefix)_needs_command",
            "    test (count (commandline -opc)) -eq 1",
            "end",
            "",
            "# Whether the line's command (its first word after the tool's name) is $argv[1].",
            "function \(prefix)_command",
            "    set -l words (commandline -opc)",
            "    test (count $words) -ge 2; and test \"$words[2]\" = $argv[1]",
            "end",
            "",
            "\(complete) -f",
        ]
        let needsCommand = "-n \(prefix)_needs_command"
        lines += tool.commands.map { "\(complete) \(needsCommand) -a \($0.name) -d \(quote($0.summary))" }
        lines.append("\(complete) \(needsCommand) -a help -d \(quote("Show a command's help."))")
        lines += tool.options.map { "\(complete) \(needsCommand) \(optionFlags($0))" }
        let names = tool.commands.map(\.name).joined(separator: " ")
        lines.append("\(complete) -n \(quote("\(prefix)_command help")) -a \(quote(names))")
        for command in tool.commands {
            let condition = "-n " + quote("\(prefix)_command \(command.name)")
            lines.append("")
            lines += command.options.map { "\(complete) \(condition) \(optionFlags($0))" }
            for argument in command.arguments {
                switch argument.value {
                case .file: lines.append("\(complete) \(condition) -F")
                case .directory: lines.append("\(complete) \(condition) -a '(__fish_complete_directories)'")
                case .choices(let words): lines.append("\(complete) \(condition) -a \(quote(words.joined(separator: " ")))")
                case .none, .text: break
                }
            }
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    /// `-l format -x -a 'json text' -d '…'`: the long name, how its value completes, its help.
    static func optionFlags(_ option: OptionSpec) -> String {
        let name = "-l " + String(option.name.drop { $0 == "-" })
        let value: String
        switch option.value {
        case .none: value = ""
        case .file: value = " -r -F"
        case .directory: value = " -x -a '(__fish_complete_directories)'"
        case .choices(let words): value = " -x -a " + quote(words.joined(separator: " "))
        case .text: value = " -x"
        }
        return name + value + " -d " + quote(option.help)
    }

    /// `text` in single quotes for fish (which escapes only `\` and `'` inside them).
    static func quote(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
