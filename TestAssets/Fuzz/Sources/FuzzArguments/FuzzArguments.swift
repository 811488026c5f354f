@_spi(Tooling) import CarillonExtensionCore
import CarillonFuzzChecks

@testable import CarillonCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// libFuzzer's entry point: the input is a command line, split on NUL into arguments.
///
/// 1. `ParsedArguments.parse` against the options of the subcommand the input names and of two others
///    its bytes pick (`parseIndices`): a usage error is a `UsageError` with a message, never a crash; it
///    accepts exactly what the documented rules (`FuzzChecks.modelParse`) accept, reads it the same way,
///    and reads the canonical spelling of it the same way again; `process`'s number options validate to
///    values in range.
/// 2. For one input in `runShare` (by its bytes), `CarillonTool.run` in-process with captured streams,
///    every path argument moved into the sandbox (`FuzzChecks.sandboxed`, `FuzzSandbox`: what a fresh
///    one would hold) and standard input a payload that asks for no image, so nothing
///    outside the sandbox is touched and no connection is made: the status is 0, 1 or 64, 64 exactly
///    when the parser refuses the arguments, and a usage error says how to get help.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    prepareOnce()
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let arguments = FuzzChecks.arguments(bytes)
    let rest = Array(arguments.dropFirst())
    // The command the input names, and two of the others chosen by its bytes (README "Speed"): every
    // command's parse on every input was two fifths of the target's time, and the parser's code is the
    // same for each, only the options differ; the regression test parses under every command.
    let hash = FuzzSampling.hash(bytes)
    let named = parseTables.firstIndex { $0.name == arguments.first }
    for index in parseIndices(named: named, hash: hash) {
        checkParse(rest, command: parseTables[index])
    }
    // A whole run of the tool (a sandbox of files, a command, its output) on every input was two thirds
    // of the target's time: one input in `runShare` gets one, chosen by its bytes so that a crash
    // replays. Long lists only repeat the parser's work; running each positional as a payload file adds
    // nothing.
    if arguments.count <= 64 && hash % UInt64(runShare) == 0 { checkRun(arguments) }
    return 0
}

/// How many commands other than the one an input names parse it.
private let otherCommands = 2

/// The commands an input is parsed under: the one it names (if any), then `otherCommands` of the rest,
/// taken in turn from a place its hash picks, so that each command parses a steady share of all inputs.
private func parseIndices(named: Int?, hash: UInt64) -> [Int] {
    let count = parseTables.count
    var indices = named.map { [$0] } ?? []
    var index = Int((hash >> 8) % UInt64(count))
    while indices.count < (named == nil ? otherCommands : otherCommands + 1) {
        if index != named { indices.append(index) }
        index = (index + 1) % count
    }
    return indices
}

/// One input in this many is also run through `CarillonTool.run` (README "Speed").
private let runShare = 16

private func fail(_ message: String) -> Never {
    fatalError("FuzzArguments: \(message)")
}

private func allOptions(_ command: any Command.Type) -> [OptionSpec] {
    command.options + [CarillonTool.helpOption]
}

/// Each command's name, options and the names of those that take a value, made once: rebuilding them
/// for every command of every input was a tenth of the target's allocations.
private let parseTables: [(name: String, options: [OptionSpec], valued: Set<String>)] = CarillonTool.commands.map { command in
    let options = allOptions(command)
    return (command.name, options, Set(options.filter { $0.valueName != nil }.map(\.name)))
}

/// The model's and the sandbox's table, made once from the same declarations the tool parses with.
private let table = FuzzChecks.OptionTable(
    CarillonTool.commands.map { command in
        (
            command.name,
            allOptions(command).map { option in
                FuzzChecks.OptionTable.Declared(
                    name: option.name, placeholder: option.valueName, isDirectory: option.value == .directory,
                    isFile: option.value == .file, repeatable: option.repeatable)
            }
        )
    })

/// The one sandbox every run uses: its files made once, and again only after a run changed them.
nonisolated(unsafe) private let sandbox = FuzzSandbox()

nonisolated(unsafe) private var prepared = false

/// Before the first input: no key in the environment, the runs' `$TMPDIR` in the scratch directory, and
/// a table the sandbox can trust.
private func prepareOnce() {
    guard !prepared else { return }
    prepared = true
    // `upload` and `readback` must never reach the network from a fuzzed command line: with no key in the
    // environment and every --key-file a sandbox path that is missing or a directory, they stop at a usage
    // error.
    unsetenv("CARILLON_MOBILE_KEY")
    unsetenv("CARILLON_SECRET_KEY")
    // A run without --attachments keeps its images in a directory of its own under $TMPDIR and first
    // sweeps $TMPDIR for abandoned ones: listing and sorting a shared /tmp of hundreds of entries was a
    // tenth of the target's time, and the runs' directories belong in the scratch directory anyway.
    setenv("TMPDIR", FuzzScratch.freshDirectory("tmp"), 1)
    if let problem = table.problems.first { fail("an option the sandbox would not move: \(problem)") }
}

private func checkParse(_ arguments: [String], command: (name: String, options: [OptionSpec], valued: Set<String>)) {
    let (_, options, valued) = command
    let model = FuzzChecks.modelParse(arguments, command: command.name, in: table)
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments.parse(arguments, options: options)
    } catch {
        if error.message.isEmpty { fail("a usage error without a message for \(arguments)") }
        if let model { fail("\(command.name) refuses \(arguments) (\(error.message)), which its rules accept as \(model)") }
        return
    }
    let read = FuzzChecks.ParsedLine(
        values: parsed.values, repeated: parsed.repeated, flags: parsed.flags, positionals: parsed.positionals)
    guard read == model else {
        fail("\(command.name) reads \(arguments) as \(read), its rules as \(model.map { "\($0)" } ?? "a usage error")")
    }
    // The canonical spelling parses to the same thing.
    let canonical = FuzzChecks.canonicalSpelling(read)
    guard (try? ParsedArguments.parse(canonical, options: options)) == parsed else {
        fail("canonical spelling \(canonical) of \(arguments) parses differently")
    }
    // Number options: a value in range or a usage error.
    for name in ["--budget", "--expire-after"] where valued.contains(name) {
        if let seconds = try? parsed.seconds(name, default: 20), !(seconds.isFinite && seconds > 0 && seconds <= 86_400) {
            fail("\(name) accepted \(seconds)")
        }
    }
    for (name, maximum) in [("--max-bytes", Int.max), ("--jobs", 256)] where valued.contains(name) {
        if let number = try? parsed.positiveInteger(name, default: 1, maximum: maximum), !(1...maximum).contains(number) {
            fail("\(name) accepted \(number)")
        }
    }
}

private func checkRun(_ arguments: [String]) {
    let command = arguments.first.flatMap { name in CarillonTool.commands.first { $0.name == name } }
    var named = false
    var run = arguments
    if let command {
        let root = sandbox.root
        run = FuzzChecks.sandboxed(arguments, in: root, table: table)
        named = sandbox.prepare(for: run)
        // Defence in depth: every path the parser sees is inside the sandbox.
        if let parsed = try? ParsedArguments.parse(Array(run.dropFirst()), options: allOptions(command)) {
            let kinds = table.options[command.name]!
            let isPath = { (name: String) in kinds[name] == .directory || kinds[name] == .file }
            let paths =
                parsed.positionals + parsed.values.filter { isPath($0.key) }.map(\.value)
                + parsed.repeated.filter { isPath($0.key) }.flatMap(\.value)
            for path in paths where !(path.isEmpty || path == "-" || path.hasPrefix(root + "/")) {
                fail("sandboxing \(arguments) left the path '\(path)' outside \(root)")
            }
        }
    }
    defer { if named { sandbox.reset() } }

    let output = CapturedStream()
    let errors = CapturedStream()
    let payload = FuzzChecks.sandboxPayload
    let io = ToolIO(
        standardOutput: output, standardError: errors,
        readStandardInput: { limit in Array(payload.prefix(limit)) }, standardErrorIsTerminal: false)
    let status = CarillonTool.run(run, io: io)

    guard FuzzChecks.exitStatuses.contains(status) else { fail("exit status \(status) for \(run)") }
    var refused = arguments.isEmpty
    if let command {
        do {
            _ = try ParsedArguments.parse(Array(run.dropFirst()), options: allOptions(command))
        } catch {
            refused = true
        }
    } else if let first = arguments.first, !["--help", "-h", "help", "--version"].contains(first) {
        refused = true
    }
    if refused && status != 64 { fail("the parser refuses \(run) but the tool exited \(status)") }
    if status == 64 {
        // No arguments at all get the whole help; anything else a line and a pointer to the help.
        guard errors.text.contains(arguments.isEmpty ? "Usage:" : "for usage."), output.text.isEmpty else {
            fail("usage error for \(run) without a usage hint, or with output: \(errors.text.prefix(300))")
        }
    }
    if let first = arguments.first, ["--help", "-h", "help", "--version"].contains(first) {
        guard status == 0, !output.text.isEmpty else { fail("\(first) exited \(status) or printed nothing") }
    }
}
