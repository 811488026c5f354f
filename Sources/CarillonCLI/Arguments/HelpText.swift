/// The frame of every `--help` page, made from the declarations: the usage line, the prose, the options
/// table, more prose, and the exit statuses. Commands give the prose; nothing else writes the frame.
enum HelpText {
    /// "Usage: LINE", the overview, "Options:" and the table, each later section, then "Exit status:"
    /// and its table; blocks separated by a blank line, ending with a newline. `title` (the tool's own
    /// page) goes first when given.
    static func page(
        title: String? = nil, usage: String, overview: String, options: [OptionSpec], sections: [String] = [],
        exitStatuses: [ExitStatus]
    ) -> String {
        let blocks =
            (title.map { [$0] } ?? []) + ["Usage: " + usage, overview, "Options:\n" + optionsHelp(options)] + sections
            + [ExitStatus.help(exitStatuses)]
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

/// Formats an options table for `--help`.
func optionsHelp(_ options: [OptionSpec]) -> String {
    let labels = options.map { option in option.valueName.map { "\(option.name) \($0)" } ?? option.name }
    let width = (labels.map(\.count).max() ?? 0) + 2
    return zip(labels, options).map { label, option in
        "  " + label + String(repeating: " ", count: width - label.count) + option.help
    }.joined(separator: "\n")
}
