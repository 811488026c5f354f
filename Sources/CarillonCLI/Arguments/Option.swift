@_spi(Tooling) import CarillonExtensionCore

/// One option declared once: its name, value type, default and help. The parser's table
/// (``spec``), the `--help` line (with the default, from the same value the command uses) and the
/// typed read of its value (``read(_:)``) all come from the declaration, as swift-argument-parser's
/// `@Option(name:help:) var x = default` does.
struct Option<Value: Sendable>: Sendable {
    let spec: OptionSpec
    private let reader: @Sendable (ParsedArguments) throws(UsageError) -> Value

    /// The option's value as given, checked and converted, or its default.
    func read(_ arguments: ParsedArguments) throws(UsageError) -> Value { try reader(arguments) }

    /// The same option with a discussion: the longer story the reference pages and the man page tell
    /// after the help sentence, while `--help` stays one line.
    func discussing(_ discussion: String) -> Option {
        var spec = spec
        spec.discussion = discussion
        return Option(spec: spec, reader: reader)
    }

    fileprivate init(spec: OptionSpec, reader: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Value) {
        self.spec = spec
        self.reader = reader
    }

    private init(
        _ name: String, _ placeholder: String?, help: String, default shown: String?, value: ValueKind? = nil, isRequired: Bool = false,
        read: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Value
    ) {
        spec = OptionSpec(name: name, valueName: placeholder, help: help, defaultValue: shown, value: value, isRequired: isRequired)
        reader = read
    }
}

extension Option where Value == Bool {
    /// A flag that takes no value.
    static func flag(_ name: String, help: String) -> Option {
        Option(name, nil, help: help, default: nil) { $0.has(name) }
    }
}

extension Option where Value == String? {
    /// A path (never empty), absent by default; `shown` is what the command uses then, for the help.
    static func path(_ name: String, _ placeholder: String, help: String, default shown: String? = nil) -> Option {
        Option(name, placeholder, help: help, default: shown, value: .path(placeholder: placeholder)) { arguments throws(UsageError) in
            try arguments.path(name)
        }
    }

    /// Text checked by the command, absent by default; `shown` is what the command uses then, for the help.
    static func text(_ name: String, _ placeholder: String, help: String, default shown: String? = nil) -> Option {
        Option(name, placeholder, help: help, default: shown) { $0.value(name) }
    }
}

extension Option where Value == String {
    /// A path (never empty) the command cannot run without.
    static func requiredPath(_ name: String, _ placeholder: String, help: String) -> Option {
        Option(name, placeholder, help: help, default: nil, value: .path(placeholder: placeholder), isRequired: true) {
            arguments throws(UsageError) in
            guard let path = try arguments.path(name) else { throw UsageError(message: "option '\(name)' is required") }
            return path
        }
    }

    /// Text checked by the command, which cannot run without it.
    static func requiredText(_ name: String, _ placeholder: String, help: String) -> Option {
        Option(name, placeholder, help: help, default: nil, isRequired: true) { arguments throws(UsageError) in
            guard let text = arguments.value(name) else { throw UsageError(message: "option '\(name)' is required") }
            return text
        }
    }
}

extension Option where Value == [String] {
    /// Text that may be given more than once: every value, in order, each checked by `check`.
    static func repeatable(
        _ name: String, _ placeholder: String, help: String,
        check: @escaping @Sendable (String) throws(UsageError) -> Void = { _ in }
    ) -> Option {
        Option(spec: OptionSpec(name: name, valueName: placeholder, help: help, repeatable: true)) { arguments throws(UsageError) in
            let values = arguments.all(name)
            for value in values { try check(value) }
            return values
        }
    }
}

extension Option where Value == Timestamp {
    /// An ISO 8601 instant, the moment the command runs by default.
    static func instant(_ name: String, help: String) -> Option {
        Option(name, "ISO8601", help: help, default: "now") { arguments throws(UsageError) in
            guard let text = arguments.value(name) else { return Timestamp.now() }
            guard let instant = Timestamp(iso8601: text) else {
                throw UsageError(message: "option '\(name)' needs an ISO 8601 time such as 2026-08-20T09:16:44.120Z, not '\(text)'")
            }
            return instant
        }
    }
}

extension Option where Value == Duration {
    /// A number of seconds converted once to whole milliseconds (at least 1), as a `Duration`.
    static func duration(_ name: String, default value: Duration, help: String) -> Option {
        let milliseconds = Int(clamping: value.wholeMilliseconds)
        return Option(name, "SECONDS", help: help, default: Self.seconds(text: Double(milliseconds) / 1000)) {
            arguments throws(UsageError) in
            .milliseconds(try arguments.milliseconds(name, default: milliseconds))
        }
    }
}

extension Option where Value == Int {
    /// A whole number from 1 to `maximum`.
    static func positiveInteger(_ name: String, default value: Int, maximum: Int = .max, help: String) -> Option {
        Option(name, "N", help: help, default: String(value)) { arguments throws(UsageError) in
            try arguments.positiveInteger(name, default: value, maximum: maximum)
        }
    }
}

extension Option {
    /// One of a fixed set of words, `default` when absent.
    static func choice(_ name: String, _ choices: [Value], default value: Value, help: String) -> Option
    where Value: RawRepresentable, Value.RawValue == String {
        let words = choices.map(\.rawValue)
        return Option(name, words.joined(separator: "|"), help: help, default: value.rawValue, value: .choices(words)) {
            arguments throws(UsageError) in
            guard let text = arguments.value(name) else { return value }
            guard let chosen = choices.first(where: { $0.rawValue == text }) else {
                throw UsageError(message: "option '\(name)' needs \(Wording.list(words)), not '\(text)'")
            }
            return chosen
        }
    }

    /// "20", "0.5": seconds as a person writes them.
    fileprivate static func seconds(text value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
