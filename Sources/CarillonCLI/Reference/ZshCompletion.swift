/// The zsh completion script: `_arguments` specs for the tool and for each command, from the declarations.
enum ZshCompletion {
    static func script(_ tool: ToolReference) -> String {
        let function = "_" + tool.name
        var lines = [
            "#compdef \(tool.name)",
            "# zsh completion for \(tool.name), generated from its option declarations: \(tool.name) completions zsh",
            "# Use: save it as _\(tool.name) in a directory of $fpath, before compinit runs.",
            "",
            "\(function)() {",
            "    local context state state_descr line",
            "    typeset -A opt_args",
            "    _arguments -C \\",
        ]
        lines += tool.options.map { "        " + quote("(- *)" + optionSpec($0)) + " \\" }
        lines += [
            "        '1: :->command' \\",
            "        '*:: :->argument'",
            "    case $state in",
            "    command)",
            "        local -a commands",
            "        commands=(",
        ]
        lines += tool.commands.map { "            " + quote(escapeColons($0.name) + ":" + $0.summary) }
        lines += [
            "            " + quote("help:Show a command's help."),
            "        )",
            "        _describe -t commands '\(tool.name) command' commands",
            "        ;;",
            "    argument)",
            "        case $line[1] in",
            "        help) _arguments " + quote("1:command:(" + tool.commands.map(\.name).joined(separator: " ") + ")") + " ;;",
        ]
        lines += tool.commands.map { "        \($0.name)) \(function)_\(identifier($0.name)) ;;" }
        lines += [
            "        esac",
            "        ;;",
            "    esac",
            "}",
        ]
        for command in tool.commands {
            lines += ["", "\(function)_\(identifier(command.name))() {", "    _arguments \\"]
            var specs = command.options.map(optionSpec)
            for (index, argument) in command.arguments.enumerated() {
                let position = argument.repeats ? "*" : String(index + 1)
                specs.append(position + ":" + escapeColons(argument.name) + ":" + action(argument.value))
            }
            lines += specs.enumerated().map { index, spec in
                "        " + quote(spec) + (index == specs.count - 1 ? "" : " \\")
            }
            lines.append("}")
        }
        lines += [
            "",
            "# Loaded by compinit this file is the function's body; sourced, it registers the function.",
            "if [[ $funcstack[1] == \(function) ]]; then",
            "    \(function) \"$@\"",
            "else",
            "    compdef \(function) \(tool.name)",
            "fi",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `--format=[JSON Lines, or a readable block per payload.]:json|text:(json text)`: the option, its
    /// help in brackets, and for a value the message and how to complete it (`=`: `--name VALUE` or
    /// `--name=VALUE`).
    /// A repeatable option starts with `*`, so that `_arguments` offers it again.
    static func optionSpec(_ option: OptionSpec) -> String {
        let help = "[" + escapeDescription(option.help) + "]"
        let name = (option.repeatable ? "*" : "") + option.name
        guard let valueName = option.valueName else { return name + help }
        return name + "=" + help + ":" + escapeColons(valueName) + ":" + action(option.value)
    }

    /// The `_arguments` action for a kind of value; a space offers nothing and shows the message.
    static func action(_ value: ValueKind) -> String {
        switch value {
        case .file: "_files"
        case .directory: "_files -/"
        case .choices(let words): "(" + words.map { $0.replacing(" ", with: "\\ ") }.joined(separator: " ") + ")"
        case .none, .text: " "
        }
    }

    /// An option's help inside `[...]`: brackets, colons and backslashes escaped.
    static func escapeDescription(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\[]:".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    static func escapeColons(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
    }

    /// A command's name as part of a function name.
    static func identifier(_ name: String) -> String {
        name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// `text` in single quotes for zsh.
    static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
