/// A subcommand of the tool, declared as data, checked, then run: `--help`, the reference pages, the
/// man page and the shell completions are all made from the declarations, and the work starts only
/// once every argument has been read and checked.
///
/// How to write a command (``DrainCommand`` is a short one to copy, ``ProcessCommand`` a long one):
///
/// 1. Declare it. An `enum FooCommand: Command` with its ``name``, one-line ``summary``, its options in
///    a nested `enum Options` of ``Option`` values (each declared once: name, placeholder, help,
///    default) listed by their specs in ``options``, its positional ``arguments``, and every
///    ``exitStatuses`` entry it can end with (0 first, 64 last).
/// 2. Tell its story. ``overview`` is the prose `--help` prints under the usage line, before the
///    options table; ``sections`` are the paragraphs after the table (the output's fields, what a file
///    holds). Never write "Usage:", "Options:" or "Exit status:" yourself: ``help`` frames the prose.
/// 3. Check it. ``validate(_:)`` turns the ``ParsedArguments`` into a typed ``Plan`` (a struct of
///    checked values: directories checked by ``DirectoryCheck``, numbers in range, files readable), throwing
///    ``UsageError`` (exit 64, naming the option and the problem) for anything wrong. It prints
///    nothing and starts no work.
/// 4. Run it. ``run(_:io:)`` takes the plan and does the work; it cannot throw a usage error, prints
///    through `io` and returns the exit status. Write it as the steps it takes, one small function each.
///    A command that runs payloads through the extension offers the pipeline's options
///    (``PipelineOptions``) and shares `process`'s steps: its `validate` reads a ``PipelinePlan``, its
///    `run` hands its own ``PayloadStream`` to ``PipelineRun`` (``CheckCommand`` is one).
/// 5. List it in ``CarillonTool/commands`` and regenerate the reference:
///    `CARILLON_WRITE_FIXTURES=1 swift test --filter GeneratedReferenceTests`.
protocol Command {
    /// Everything the command needs to run, checked: what ``validate(_:)`` makes and ``run(_:io:)`` takes.
    associatedtype Plan

    static var name: String { get }
    /// What it does, in one line: the tool's command list, the man page, the reference index.
    static var summary: String { get }
    static var options: [OptionSpec] { get }
    /// The positional arguments, in order.
    static var arguments: [ArgumentSpec] { get }
    /// Every status the command can end with, and when.
    static var exitStatuses: [ExitStatus] { get }
    /// The prose `--help` prints after the usage line and before the options: what the command does and
    /// what it prints. Paragraphs are separated by a blank line; no trailing newline.
    static var overview: String { get }
    /// The paragraphs `--help` prints after the options and before the exit statuses (none by default).
    static var sections: [String] { get }

    /// Reads and checks every argument; prints nothing and starts no work.
    ///
    /// - Throws: ``UsageError`` naming the option or argument and what is wrong with it.
    static func validate(_ arguments: ParsedArguments) throws(UsageError) -> Plan

    /// Does the work the plan describes and returns the exit status.
    static func run(_ plan: Plan, io: ToolIO) -> Int32
}

extension Command {
    static var sections: [String] { [] }

    /// The usage line: the required options, then `[options]` for the others, then the arguments.
    static var usage: String { Usage.line(command: CarillonTool.name + " " + name, options: options, arguments: arguments) }

    /// The whole `--help` text, framed from the declarations.
    static var help: String {
        HelpText.page(
            usage: usage, overview: overview, options: options + [CarillonTool.helpOption], sections: sections,
            exitStatuses: exitStatuses)
    }

    /// Validates, then runs: the one way the tool calls a command.
    static func execute(_ arguments: ParsedArguments, io: ToolIO) throws(UsageError) -> Int32 {
        let plan = try validate(arguments)
        return run(plan, io: io)
    }

    /// The positional arguments of a command that reads its inputs from them (`what`: "PAYLOAD", "URL"):
    /// at least one, and `-` at most once (standard input can be read only once; a second `-` would read
    /// nothing).
    static func inputArguments(_ arguments: ParsedArguments, naming what: String) throws(UsageError) -> [String] {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "no \(what) given") }
        if arguments.positionals.filter({ $0 == "-" }).count > 1 {
            throw UsageError(message: "'-' (standard input) given more than once")
        }
        return arguments.positionals
    }

    /// A usage error unless no positional argument was given: for commands that take none.
    static func expectNoArguments(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positionals[0])'") }
    }
}
