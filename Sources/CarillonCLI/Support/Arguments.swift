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

/// A mistake in how the tool was called: exit status 64 (`EX_USAGE`).
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Arguments after parsing: option values by name, flags given, and the positional arguments.
struct ParsedArguments: Equatable {
    var values: [String: String] = [:]
    /// The values of repeatable options, in the order given.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    /// The value of an option, or nil when it was not given.
    func value(_ name: String) -> String? { values[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
    /// Every value of a repeatable option, in order; empty when it was not given.
    func all(_ name: String) -> [String] { repeated[name] ?? [] }

    /// Parses `arguments` against `options`: `--name VALUE`, `--name=VALUE`, flags, `--` to end
    /// options, and `-` as a positional (standard input).
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or unexpected value, or an option
    ///   given twice (unless it is ``OptionSpec/repeatable``).
    static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            // Split on the scalar '=', not the Character: a value starting with a combining mark would
            // otherwise fuse with the '=' into one grapheme and hide it (found by FuzzArguments).
            let scalars = argument.unicodeScalars
            if let equals = scalars.firstIndex(of: "=") {
                name = String(scalars[..<equals])
                inlineValue = String(scalars[scalars.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            guard let spec = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option '\(name)'")
            }
            if parsed.values[name] != nil || parsed.flags.contains(name) {
                throw UsageError(message: "option '\(name)' given more than once")
            }
            if let valueName = spec.valueName {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(message: "option '\(name)' needs a value (\(valueName))") }
                    value = arguments[index]
                    index += 1
                }
                if spec.repeatable {
                    parsed.repeated[name, default: []].append(value)
                } else {
                    parsed.values[name] = value
                }
            } else {
                if inlineValue != nil { throw UsageError(message: "option '\(name)' takes no value") }
                parsed.flags.insert(name)
            }
        }
        return parsed
    }

    /// A path option's value: never empty (an empty `--container` would put receipts at the root).
    func path(_ name: String) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard !text.isEmpty else { throw UsageError(message: "option '\(name)' needs a path, not an empty string") }
        return text
    }

    /// A positive decimal number of seconds, as `--budget` and `--expire-after` take.
    func seconds(_ name: String, default defaultValue: Double) throws(UsageError) -> Double {
        guard let text = value(name) else { return defaultValue }
        guard let number = Double(text), number.isFinite, number > 0, number <= 86_400 else {
            throw UsageError(message: "option '\(name)' needs a number of seconds above 0 (up to 86400), not '\(text)'")
        }
        return number
    }

    /// A duration given in seconds (`--budget`), converted once to whole milliseconds (rounded), and
    /// at least 1 ms: below that it would round to 0, which libcurl reads as "no limit".
    func milliseconds(_ name: String, default defaultValue: Int) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        let seconds = try self.seconds(name, default: 0)
        guard seconds * 1000 >= 1 else {
            throw UsageError(message: "option '\(name)' needs at least 0.001 seconds (1 ms), not '\(text)'")
        }
        return Int((seconds * 1000).rounded())
    }

    /// A positive whole number, as `--max-bytes` and `--jobs` take.
    func positiveInteger(_ name: String, default defaultValue: Int, maximum: Int = .max) throws(UsageError) -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), number > 0, number <= maximum else {
            throw UsageError(message: "option '\(name)' needs a whole number from 1 to \(maximum), not '\(text)'")
        }
        return number
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
