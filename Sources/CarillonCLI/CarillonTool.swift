@_spi(Tooling) import CarillonExtensionCore

/// The `carillon-nse` command line: parses arguments, runs a subcommand, returns the exit status.
///
/// Everything is written to the streams in `io`, so tests run the tool in-process; the executable only
/// passes the real streams and exits with the status.
public enum CarillonTool {
    /// Every input was read (fallbacks are normal outcomes).
    public static let exitSuccess: Int32 = 0
    /// Some input was unreadable or not a JSON object; the others were still processed.
    public static let exitDataError: Int32 = 1
    /// The tool was called wrongly (`EX_USAGE`).
    public static let exitUsage: Int32 = 64
    /// `process --fail-on` matched an outcome.
    public static let exitFailOn: Int32 = 2
    /// `replay --check` found a verdict that differs from the recorded one.
    public static let exitChanged: Int32 = 3

    static let name = "carillon-nse"

    /// What the tool is, in one line: the man page's NAME and the first line of `--help`.
    static let summary = "Carillon's iOS Notification Service Extension logic, on Linux."

    static var commands: [any Command.Type] {
        [
            ProcessCommand.self, CheckCommand.self, ReplayCommand.self, DrainCommand.self, OpenCommand.self, PresentCommand.self,
            ScanCommand.self, BatchesCommand.self, UploadCommand.self, ReadbackCommand.self, SummaryCommand.self, MergeCommand.self,
            DoctorCommand.self,
            CompletionsCommand.self,
        ]
    }

    /// The options taken before any command.
    static let globalOptions = [
        OptionSpec(name: "--help", valueName: nil, help: "Show this help, or a command's help after the command's name."),
        OptionSpec(name: "--version", valueName: nil, help: "Show the version of carillon-nse and of libcurl."),
    ]

    /// The statuses every command shares; each command's own table says when, for it.
    static let exitStatuses = [
        ExitStatus(code: exitSuccess, meaning: "Every input was read."),
        ExitStatus(code: exitDataError, meaning: "An input was unreadable or not a JSON object (the others are still processed)."),
        ExitStatus(code: exitFailOn, meaning: "An outcome of process matched --fail-on."),
        ExitStatus(code: exitChanged, meaning: "replay --check found a verdict that differs from the recorded one."),
        ExitStatus(code: exitUsage, meaning: "The command line is wrong."),
    ]

    static var help: String {
        let width = (commands.map { $0.name.count }.max() ?? 0) + 2
        let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
        return HelpText.page(
            title: "\(name): \(summary)", usage: "carillon-nse <command> [options] [arguments]",
            overview: "Commands:\n" + list.joined(separator: "\n"), options: globalOptions, exitStatuses: exitStatuses)
    }

    /// Runs the tool with `arguments` (without the program name).
    ///
    /// Whatever ran — a command, `--help`, `--version` — a failed write to standard output (a closed
    /// pipe, a full disk) makes the status 1, with one line on standard error: what was not written is
    /// lost to the reader, so the run did not do its job.
    public static func run(_ arguments: [String], io: ToolIO) -> Int32 {
        let status = dispatch(arguments, io: io)
        guard let failure = io.standardOutput.failure else { return status }
        let command = arguments.first.flatMap { first in commands.first { $0.name == first } }
        io.standardError.line("\(name)\(command.map { " " + $0.name } ?? ""): cannot write to standard output: \(failure)")
        return exitDataError
    }

    private static func dispatch(_ arguments: [String], io: ToolIO) -> Int32 {
        guard let first = arguments.first else {
            io.standardError.write(help)
            return exitUsage
        }
        switch first {
        case "--help", "-h", "help":
            if first == "help", arguments.count > 1, let command = commands.first(where: { $0.name == arguments[1] }) {
                io.standardOutput.write(command.help)
            } else {
                io.standardOutput.write(help)
            }
            return exitSuccess
        case "--version":
            io.standardOutput.write("carillon-nse \(CarillonVersion.current) (\(CarillonVersion.libcurl))\n")
            return exitSuccess
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
            return usageFailure(what, command: nil, io: io)
        }
        let rest = Array(arguments.dropFirst())
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options + [helpOption])
            if parsed.has("--help") {
                io.standardOutput.write(command.help)
                return exitSuccess
            }
            return try command.execute(parsed, io: io)
        } catch {
            return usageFailure(error.message, command: command.name, io: io)
        }
    }

    static let helpOption = OptionSpec(name: "--help", valueName: nil, help: "Show this help.")

    private static func usageFailure(_ message: String, command: String?, io: ToolIO) -> Int32 {
        let prefix = command.map { "\(name) \($0)" } ?? name
        let helpCommand = command.map { "\(name) \($0) --help" } ?? "\(name) --help"
        // Arguments quoted in the message may hold bytes that are not UTF-8, or control characters.
        io.standardError.line("\(prefix): \(message)")
        io.standardError.line("Run '\(helpCommand)' for usage.")
        return exitUsage
    }
}
