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
                // Room for every argument left at once: a long list costs one allocation, not one per doubling
                // (FuzzArguments parses each input a few dozen times).
                if parsed.positionals.isEmpty { parsed.positionals.reserveCapacity(arguments.count - index + 1) }
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
