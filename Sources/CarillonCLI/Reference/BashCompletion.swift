/// The bash completion script: one function that completes the command, then the command's options,
/// an option's value and the command's arguments, from the declarations.
enum BashCompletion {
    /// The completion function's name, from the tool's (`carillon-nse` → `_carillon_nse`).
    static func functionName(_ tool: ToolReference) -> String {
        "_" + tool.name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    static func script(_ tool: ToolReference) -> String {
        let function = functionName(tool)
        let topLevel = tool.commands.map(\.name) + ["help"] + tool.options.map(\.name)
        var lines = [
            "# bash completion for \(tool.name), generated from its option declarations: \(tool.name) completions bash",
            "# Use: source <(\(tool.name) completions bash), or save it as",
            "# ~/.local/share/bash-completion/completions/\(tool.name)",
            "",
            "\(function)_reply() {",
            "    mapfile -t COMPREPLY < <(compgen \"$@\" -- \"$cur\")",
            "}",
            "",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=",
            "    (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # --name=VALUE: bash splits the word at '=' (COMP_WORDBREAKS); VALUE is completed for --name.",
            "    if [[ $cur == = ]]; then",
            "        cur=",
            "    elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then",
            "        prev=${COMP_WORDS[COMP_CWORD-2]}",
            "    fi",
            "    COMPREPLY=()",
            "    if (( COMP_CWORD == 1 )); then",
            "        \(function)_reply -W \(quote(topLevel.joined(separator: " ")))",
            "        return 0",
            "    fi",
            "    case ${COMP_WORDS[1]} in",
            "    help)",
            "        (( COMP_CWORD == 2 )) && \(function)_reply -W \(quote(tool.commands.map(\.name).joined(separator: " ")))",
            "        ;;",
        ]
        for command in tool.commands {
            lines.append("    \(command.name))")
            lines += commandBody(command, function: function).map { "        " + $0 }
            lines.append("        ;;")
        }
        lines += [
            "    esac",
            "    return 0",
            "}",
            "",
            "complete -o filenames -F \(function) \(tool.name)",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// A command's branch: the value of the option before the cursor, else its options or its arguments.
    static func commandBody(_ command: CommandReference, function: String) -> [String] {
        var lines: [String] = []
        let valued = command.options.filter { $0.value != .none }
        if !valued.isEmpty {
            lines.append("case $prev in")
            // Options whose values complete alike share a branch, in declaration order.
            var groups: [(value: ValueKind, names: [String])] = []
            for option in valued {
                if let index = groups.firstIndex(where: { $0.value == option.value }) {
                    groups[index].names.append(option.name)
                } else {
                    groups.append((option.value, [option.name]))
                }
            }
            for group in groups {
                let reply = compgen(group.value).map { "\(function)_reply \($0); " } ?? ""
                lines.append("\(group.names.joined(separator: "|"))) \(reply)return 0 ;;")
            }
            lines.append("esac")
        }
        let optionWords = quote(command.options.map(\.name).joined(separator: " "))
        let argumentReply = command.arguments.first.flatMap { compgen($0.value) }
        if let argumentReply {
            lines += [
                "if [[ $cur == -* ]]; then",
                "    \(function)_reply -W \(optionWords)",
                "else",
                "    \(function)_reply \(argumentReply)",
                "fi",
            ]
        } else {
            lines.append("\(function)_reply -W \(optionWords)")
        }
        return lines
    }

    /// compgen's arguments for a kind of value, or nil when bash can offer nothing.
    static func compgen(_ value: ValueKind) -> String? {
        switch value {
        case .file: "-f"
        case .directory: "-d"
        case .choices(let words): "-W " + quote(words.joined(separator: " "))
        case .none, .text: nil
        }
    }

    /// `text` in single quotes for bash.
    static func quote(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }
}
