@_spi(Tooling) import CarillonExtensionCore

/// The whole command line as the reference generators read it: plain values taken from the
/// declarations (``Command``, ``OptionSpec``, ``ArgumentSpec``, ``ExitStatus``), so that each generator
/// is a pure function tested from tables.
struct ToolReference: Sendable, Equatable {
    var name: String
    var summary: String
    var version: String
    /// The options taken before any command.
    var options: [OptionSpec]
    var commands: [CommandReference]
    var exitStatuses: [ExitStatus]

    /// The tool as it is built: ``CarillonTool``'s commands and their declarations.
    static var current: ToolReference {
        ToolReference(
            name: CarillonTool.name, summary: CarillonTool.summary, version: CarillonVersion.current,
            options: CarillonTool.globalOptions, commands: CarillonTool.commands.map(CommandReference.init),
            exitStatuses: CarillonTool.exitStatuses)
    }
}

/// One command's declarations.
struct CommandReference: Sendable, Equatable {
    var name: String
    var summary: String
    /// The usage line, tool name included.
    var usage: String
    /// Its options, `--help` last.
    var options: [OptionSpec]
    var arguments: [ArgumentSpec]
    var exitStatuses: [ExitStatus]

    init(
        name: String, summary: String, usage: String, options: [OptionSpec], arguments: [ArgumentSpec], exitStatuses: [ExitStatus]
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.arguments = arguments
        self.exitStatuses = exitStatuses
    }

    init(_ command: any Command.Type) {
        self.init(
            name: command.name, summary: command.summary, usage: command.usage, options: command.options + [CarillonTool.helpOption],
            arguments: command.arguments, exitStatuses: command.exitStatuses)
    }
}
