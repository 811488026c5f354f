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

    /// The subcommands' options, as the tool declares them (the fuzz target checks this table against
    /// the real declarations on its first run, so it cannot fall behind silently).
    public static let commandOptions: [String: [String: OptionValue]] = [
        "process": [
            "--container": .directory, "--attachments": .directory, "--ca-file": .file, "--budget": .text,
            "--max-bytes": .text, "--expire-after": .text, "--jobs": .text, "--tls-minimum": .text,
            "--no-forward-secrecy": .none, "--recursive": .none, "--format": .text, "--fail-on": .text,
            "--report": .file, "--app-name": .text, "--lines": .none, "--no-share": .none, "--shard": .text,
            "--summary": .file, "--user-agent": .text, "--accept-language": .text, "--header": .text, "--help": .none,
            "--record": .directory, "--record-inline": .text, "--record-keep-secrets": .none, "--app": .file,
        ],
        // Its RECORDING positionals are sandboxed like every positional: it reads them and opens no socket.
        "replay": [
            "--payload": .file, "--url": .text, "--entry": .text, "--list": .none, "--at": .text, "--latin1-bodies": .none,
            "--chain": .file, "--match-ignore-query": .text, "--check": .none, "--format": .text, "--budget": .text,
            "--max-bytes": .text, "--tls-minimum": .text,
            "--no-forward-secrecy": .none, "--ca-file": .file, "--expire-after": .text, "--user-agent": .text, "--fail-on": .text,
            "--attachments": .directory, "--report": .file, "--app-name": .text, "--help": .none, "--app": .file,
        ],
        // process's options but --container, --recursive and --lines. Its URL positionals are sandboxed
        // to paths like every positional (invalid-url, no connection), and `-` reads the sandbox payload.
        "check": [
            "--attachments": .directory, "--ca-file": .file, "--budget": .text, "--max-bytes": .text, "--expire-after": .text,
            "--jobs": .text, "--tls-minimum": .text, "--no-forward-secrecy": .none, "--format": .text, "--fail-on": .text,
            "--report": .file, "--app-name": .text, "--no-share": .none, "--shard": .text, "--summary": .file, "--user-agent": .text,
            "--accept-language": .text, "--header": .text, "--help": .none, "--record": .directory, "--record-inline": .text,
            "--record-keep-secrets": .none, "--app": .file,
        ],
        "drain": ["--container": .directory, "--queue": .directory, "--help": .none],
        "open": ["--queue": .directory, "--at": .text, "--help": .none],
        "present": ["--queue": .directory, "--at": .text, "--suppress": .none, "--help": .none],
        "scan": ["--queue": .directory, "--help": .none],
        "batches": ["--queue": .directory, "--help": .none],
        // Its APP positional is sandboxed like every positional: it only reads it.
        "doctor": ["--format": .text, "--at": .text, "--help": .none],
        // Its positionals (`merge SUMMARY.json...`) are sandboxed like every positional; it only reads them.
        "summary": ["--help": .none],
        // The key file is sandboxed to paths that hold no key, and FuzzArguments clears
        // CARILLON_MOBILE_KEY: every fuzzed upload ends in a usage error before any connection.
        "upload": [
            "--queue": .directory, "--endpoint": .text, "--key-file": .file, "--ca-file": .file,
            "--max-attempts": .text, "--deadline": .text, "--sent-log": .file, "--help": .none,
        ],
        // The same for readback, with CARILLON_SECRET_KEY cleared.
        "readback": [
            "--endpoint": .text, "--message": .text, "--sent-log": .file, "--opens": .none, "--key-file": .file,
            "--ca-file": .file, "--format": .text, "--max-attempts": .text, "--deadline": .text, "--help": .none,
        ],
        "completions": ["--help": .none],
    ]

    /// The options that may be given more than once, every value kept in order (`--header`,
    /// `--match-ignore-query`).
    public static let repeatableOptions: Set<String> = ["--header", "--match-ignore-query"]

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
    public static func modelParse(_ arguments: [String], command: String) -> ParsedLine? {
        guard let options = commandOptions[command] else { return nil }
        var parsed = ParsedLine()
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
            if repeatableOptions.contains(name) {
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

    /// Makes a sandbox directory for one run of the tool: payload files, a payload directory and a receipt
    /// container with one receipt. Returns its path.
    public static func makeSandbox() -> String {
        let root = FuzzScratch.freshDirectory("args")
        _ = FuzzScratch.writeFile(sandboxPayload, to: root + "/payload.json")
        _ = FuzzScratch.writeFile(Array("[1]".utf8), to: root + "/not-object.json")
        mkdir(root + "/payloads", 0o700)
        _ = FuzzScratch.writeFile(sandboxPayload, to: root + "/payloads/a.json")
        _ = FuzzScratch.writeFile(Array("{\"aps\":".utf8), to: root + "/payloads/b.json")
        mkdir(root + "/container", 0o700)
        mkdir(root + "/container/" + ReceiptStore.directoryName, 0o700)
        let id = DeliveryID("01937b21-0000-7000-8000-000000000002")!
        let receipt = Receipt(deliveryID: id, receivedAt: Timestamp(millisecondsSinceEpoch: 1_787_217_404_120))
        _ = FuzzScratch.writeFile(receipt.encoded(), to: root + "/container/" + ReceiptStore.directoryName + "/" + receipt.fileName)
        return root
    }

    /// `arguments` with every path the tool could touch — a positional or the value of a directory or file
    /// option — replaced by a path inside `sandbox` (chosen by the original text), following the tool's
    /// parsing rules (as ``modelParse(_:command:)`` states them). Anything else is kept as it is. Empty values and `-` are kept (they are safe, and the
    /// tool has rules for them). An argument list that does not start with a subcommand is returned as is:
    /// the tool only prints help, its version or a usage error for it.
    public static func sandboxed(_ arguments: [String], in sandbox: String) -> [String] {
        guard let command = arguments.first, let options = commandOptions[command] else { return arguments }
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
