/// A command-line option a command accepts: what the parser, `--help`, the reference pages, the man page
/// and the shell completions all read.
struct OptionSpec: Sendable, Equatable {
    /// The long name, with its dashes: `--container`.
    var name: String
    /// The value's placeholder (`DIR`), or nil for a flag that takes no value.
    var valueName: String?
    /// The help sentence as declared, without the default.
    var about: String
    /// The default as a person writes it (`20`, `now`), or nil when there is none to show.
    var defaultValue: String?
    /// What the value is, for the shell completions.
    var value: ValueKind
    /// Whether the command refuses to run without it.
    var isRequired: Bool
    /// May be given more than once (`--header`): the completions offer it again.
    var repeatable: Bool
    /// What the reference pages and the man page add after the help: limits, edge cases, what the option
    /// is for. `--help` and the completions keep to the one sentence of ``about``.
    var discussion: String?

    /// An option; `value` defaults to ``ValueKind/none`` for a flag and ``ValueKind/text`` otherwise.
    init(
        name: String, valueName: String?, help: String, defaultValue: String? = nil, value: ValueKind? = nil, isRequired: Bool = false,
        repeatable: Bool = false, discussion: String? = nil
    ) {
        self.name = name
        self.valueName = valueName
        self.about = help
        self.defaultValue = defaultValue
        self.value = value ?? (valueName == nil ? .none : .text)
        self.isRequired = isRequired
        self.repeatable = repeatable
        self.discussion = discussion
    }

    /// The `--help` line's text: "Size cap of each image in bytes (default 10485760)."
    var help: String {
        guard let defaultValue else { return about }
        let sentence = about.hasSuffix(".") ? String(about.dropLast()) : about
        return "\(sentence) (default \(defaultValue))."
    }

    /// The help, then the discussion when there is one: what the man page says.
    var fullHelp: String { withDiscussion(help) }

    /// The help sentence without its default, then the discussion: what the reference pages' option
    /// tables say (the default has a column of its own there).
    var fullAbout: String { withDiscussion(about) }

    private func withDiscussion(_ text: String) -> String {
        discussion.map { text + " " + $0 } ?? text
    }
}
