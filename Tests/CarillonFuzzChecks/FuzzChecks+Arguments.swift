@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    // MARK: - FuzzArguments (the parts that need no CarillonCLI)

    /// The input split on NUL into arguments (no input: no arguments).
    public static func arguments(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What a command's option takes.
    public enum OptionValue: Equatable, Sendable {
        case none, text, directory, file
    }

    /// The tool's commands and their options as the model and the sandbox read them, made at run time from
    /// the tool's own declarations, so that an option is declared once: this target cannot see the tool's
    /// types, so the fuzz target and the tool's tests hand each declaration over as a ``Declared``.
    public struct OptionTable: Sendable {
        /// One option as its command declares it.
        public struct Declared: Sendable {
            public var name: String
            /// The value's placeholder (`DIR`, `N`), nil for a flag.
            public var placeholder: String?
            /// Declared as a directory or a file (a path the sandbox moves).
            public var isDirectory: Bool
            public var isFile: Bool
            /// May be given more than once, every value kept in order (`--header`).
            public var repeatable: Bool

            public init(name: String, placeholder: String?, isDirectory: Bool, isFile: Bool, repeatable: Bool) {
                self.name = name
                self.placeholder = placeholder
                self.isDirectory = isDirectory
                self.isFile = isFile
                self.repeatable = repeatable
            }
        }

        /// Each command's options by name: what each takes.
        public let options: [String: [String: OptionValue]]
        /// Each command's repeatable options.
        public let repeatable: [String: Set<String>]
        /// Declarations the sandbox cannot trust: an option whose placeholder names a path (`DIR`, `PEM`,
        /// `PATH`, `FILE…`) but is declared as text would reach the tool unmoved, outside the sandbox.
        public let problems: [String]

        /// The table of `commands`, each with every option it accepts (`--help` included).
        public init(_ commands: [(name: String, options: [Declared])]) {
            var options: [String: [String: OptionValue]] = [:]
            var repeatable: [String: Set<String>] = [:]
            var problems: [String] = []
            for (command, declared) in commands {
                for option in declared {
                    let value: OptionValue =
                        option.placeholder == nil ? .none : option.isDirectory ? .directory : option.isFile ? .file : .text
                    options[command, default: [:]][option.name] = value
                    if option.repeatable { repeatable[command, default: []].insert(option.name) }
                    if value == .text, let placeholder = option.placeholder, Self.namesPath(placeholder) {
                        problems.append("\(command) \(option.name) \(placeholder) names a path but is declared as text")
                    }
                }
            }
            self.options = options
            self.repeatable = repeatable
            self.problems = problems
        }

        /// Whether a placeholder names a path: `DIR`, `PEM`, `PATH`, `FILE`, `FILE.html`…
        static func namesPath(_ placeholder: String) -> Bool {
            ["DIR", "PEM", "PATH"].contains(placeholder) || placeholder.hasPrefix("FILE")
        }
    }

    /// A command line as the tool's rules read it: option values by name (a repeatable option's in
    /// order), flags, positionals.
    public struct ParsedLine: Equatable, Sendable {
        public var values: [String: String] = [:]
        public var repeated: [String: [String]] = [:]
        public var flags: Set<String> = []
        public var positionals: [String] = []

        public init(
            values: [String: String] = [:], repeated: [String: [String]] = [:], flags: Set<String> = [], positionals: [String] = []
        ) {
            self.values = values
            self.repeated = repeated
            self.flags = flags
            self.positionals = positionals
        }
    }

    /// A model of the tool's documented rules for a subcommand's arguments: `--name VALUE` and
    /// `--name=VALUE` (split at the first `=`, whatever follows it), flags, `-h` for `--help`, `--` ending
    /// the options, `-` and anything not starting with `-` positional; nil (a usage error) for an unknown
    /// option, an option given twice (but a repeatable one, whose values are kept in order), a missing
    /// value, or a value given to a flag.
    public static func modelParse(_ arguments: [String], command: String, in table: OptionTable) -> ParsedLine? {
        guard let options = table.options[command] else { return nil }
        let repeatable = table.repeatable[command] ?? []
        var parsed = ParsedLine()
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
            let (written, inlineValue) = splitAtEquals(argument)
            let name = written == "-h" ? "--help" : written
            guard let kind = options[name], parsed.values[name] == nil, !parsed.flags.contains(name) else { return nil }
            if kind == .none {
                guard inlineValue == nil else { return nil }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { return nil }
                value = arguments[index]
                index += 1
            }
            if repeatable.contains(name) {
                parsed.repeated[name, default: []].append(value)
            } else {
                parsed.values[name] = value
            }
        }
        return parsed
    }

    /// `--name=VALUE` split at its first `=` scalar (a value may start with a combining mark, which would
    /// hide the `=` from a search by `Character`).
    static func splitAtEquals(_ argument: String) -> (name: String, value: String?) {
        let scalars = argument.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else { return (argument, nil) }
        return (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...]))
    }

    /// The one canonical spelling of a parsed command line: `--name=value` for each value (a repeatable
    /// option's in order), the flags, `--`, the positionals.
    public static func canonicalSpelling(_ parsed: ParsedLine) -> [String] {
        parsed.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + parsed.repeated.sorted { $0.key < $1.key }.flatMap { name, values in values.map { "\(name)=\($0)" } }
            + parsed.flags.sorted() + ["--"] + parsed.positionals
    }

    /// A payload that is routed and stamped but asks for no image, so running it never opens a connection.
    public static let sandboxPayload = Array(
        #"{"aps":{"alert":{"title":"Hello","body":"World"},"mutable-content":1},"carillon":{"delivery_id":"01937b21-0000-7000-8000-000000000001"}}"#
            .utf8)

    /// `arguments` with every path the tool could touch — a positional or the value of a directory or file
    /// option — replaced by a path inside `sandbox` (chosen by the original text), following the tool's
    /// parsing rules (as ``modelParse(_:command:in:)`` states them). Anything else is kept as it is. Empty values and `-` are kept (they are safe, and the
    /// tool has rules for them). An argument list that does not start with a subcommand is returned as is:
    /// the tool only prints help, its version or a usage error for it.
    public static func sandboxed(_ arguments: [String], in sandbox: String, table: OptionTable) -> [String] {
        guard let command = arguments.first, let options = table.options[command] else { return arguments }
        func pick(_ text: String, from choices: [String]) -> String {
            text.isEmpty ? "" : sandbox + "/" + choices[text.utf8.reduce(0) { $0 &+ Int($1) } % choices.count]
        }
        func replace(_ text: String, as kind: OptionValue) -> String {
            switch kind {
            case .directory: return pick(text, from: ["queue", "container", "payload.json", "new/nested"])
            case .file: return pick(text, from: ["missing.pem", "payloads"])
            case .none, .text: return text
            }
        }
        var result = [command]
        var index = 1
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                result.append(
                    argument == "-" ? "-" : pick(argument, from: ["payload.json", "payloads", "missing.json", "not-object.json"]))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                result.append(argument)
                continue
            }
            let (name, inlineValue) = splitAtEquals(argument)
            guard let value = inlineValue else {
                result.append(argument)
                if let kind = options[name == "-h" ? "--help" : name], kind != .none, index < arguments.count {
                    result.append(replace(arguments[index], as: kind))
                    index += 1
                }
                continue
            }
            result.append(name + "=" + replace(value, as: options[name == "-h" ? "--help" : name] ?? .text))
        }
        return result
    }

    /// The statuses the tool may exit with: success, data error, usage error.
    public static let exitStatuses: Set<Int32> = [0, 1, 64]
}
