import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct ArgumentsTests {
    static let options = [
        OptionSpec(name: "--queue", valueName: "DIR", help: ""),
        OptionSpec(name: "--jobs", valueName: "N", help: ""),
        OptionSpec(name: "--help", valueName: nil, help: ""),
    ]

    @Test(arguments: [
        (["a.json", "-", "dir"], ParsedArguments(positionals: ["a.json", "-", "dir"])),
        (["--queue", "q", "x"], ParsedArguments(values: ["--queue": "q"], positionals: ["x"])),
        (["--queue=q=r"], ParsedArguments(values: ["--queue": "q=r"])),
        (["--queue=\u{0301}q"], ParsedArguments(values: ["--queue": "\u{0301}q"])),
        (["--jobs", "4", "--", "--queue"], ParsedArguments(values: ["--jobs": "4"], positionals: ["--queue"])),
        (["-h"], ParsedArguments(flags: ["--help"])),
    ])
    func parses(arguments: [String], expected: ParsedArguments) throws {
        #expect(try ParsedArguments.parse(arguments, options: Self.options) == expected)
    }

    /// A repeatable option keeps every value, in order (`process --header`).
    @Test func aRepeatableOptionKeepsEveryValue() throws {
        let options = Self.options + [OptionSpec(name: "--header", valueName: "H", help: "", repeatable: true)]
        let parsed = try ParsedArguments.parse(["--header", "A: 1", "x", "--header=B: 2", "--header", "A: 3"], options: options)
        #expect(parsed.all("--header") == ["A: 1", "B: 2", "A: 3"])
        #expect(parsed.positionals == ["x"])
        #expect(parsed.all("--queue").isEmpty)
    }

    @Test(arguments: [
        ("no colon", "option '--header' 'no colon' has no ':' between a name and a value"),
        ("Bad Name: 1", "option '--header' 'Bad Name: 1' has a name that is not an HTTP token"),
    ])
    func aMalformedHeaderIsAUsageError(text: String, message: String) throws {
        let parsed = try ParsedArguments.parse(["--header", "X-Ok: 1", "--header", text], options: ProcessCommand.options)
        #expect(throws: UsageError(message: message)) { try PipelineOptions.header.read(parsed) }
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["--queue"], "option '--queue' needs a value (DIR)"),
        (["--queue", "a", "--queue", "b"], "option '--queue' given more than once"),
        (["--help=yes"], "option '--help' takes no value"),
    ])
    func refuses(arguments: [String], message: String) {
        #expect(throws: UsageError(message: message)) { try ParsedArguments.parse(arguments, options: Self.options) }
    }

    @Test(arguments: [("0", false), ("-1", false), ("abc", false), ("1", true), ("256", true), ("257", false)])
    func jobsMustBeAPositiveWholeNumber(text: String, valid: Bool) throws {
        let parsed = try ParsedArguments.parse(["--jobs", text], options: Self.options)
        if valid {
            #expect(try parsed.positiveInteger("--jobs", default: 1, maximum: 256) == Int(text))
        } else {
            #expect(throws: UsageError.self) { try parsed.positiveInteger("--jobs", default: 1, maximum: 256) }
        }
    }

    @Test(arguments: [("0", false), ("nan", false), ("inf", false), ("-2", false), ("0.5", true), ("20", true)])
    func secondsMustBePositive(text: String, valid: Bool) throws {
        let parsed = try ParsedArguments.parse(["--jobs", text], options: Self.options)
        if valid {
            #expect(try parsed.seconds("--jobs", default: 1) == Double(text))
        } else {
            #expect(throws: UsageError.self) { try parsed.seconds("--jobs", default: 1) }
        }
    }
}

extension ArgumentsTests {
    /// `--budget` becomes milliseconds once, here; nothing below 1 ms gets through (0 ms would be
    /// libcurl's "no limit").
    @Test(
        arguments: [
            ("20", 20_000), ("0.5", 500), ("0.001", 1), ("0.0015", 2), ("86400", 86_400_000),
        ] as [(String, Int)])
    func budgetBecomesMilliseconds(text: String, milliseconds: Int) throws {
        let parsed = try ParsedArguments.parse(["--jobs", text], options: Self.options)
        #expect(try parsed.milliseconds("--jobs", default: 7) == milliseconds)
    }

    @Test(arguments: ["0.0004", "0.0009", "0", "-1", "nan"])
    func budgetUnderOneMillisecondIsAUsageError(text: String) throws {
        let parsed = try ParsedArguments.parse(["--jobs", text], options: Self.options)
        #expect(throws: UsageError.self) { try parsed.milliseconds("--jobs", default: 7) }
    }

    @Test func budgetDefaultsWhenAbsent() throws {
        #expect(try ParsedArguments.parse([], options: Self.options).milliseconds("--jobs", default: 7) == 7)
    }
}

/// The tool run in-process, with its output captured.
@Suite struct CarillonToolTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    static func run(_ arguments: [String], stdin: String = "") -> Run {
        let output = CapturedStream()
        let error = CapturedStream()
        let io = ToolIO(
            standardOutput: output, standardError: error, readStandardInput: { _ in Array(stdin.utf8) },
            standardErrorIsTerminal: false)
        let status = CarillonTool.run(arguments, io: io)
        return Run(status: status, output: output.text, error: error.text)
    }

    @Test func helpListsEveryCommand() {
        let run = Self.run(["--help"])
        #expect(run.status == 0)
        for command in ["process", "drain", "open", "batches"] { #expect(run.output.contains("  \(command)")) }
    }

    @Test(arguments: ["process", "drain", "open", "batches"])
    func everyCommandHasHelp(command: String) {
        let run = Self.run([command, "--help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Usage: carillon-nse \(command)"))
        #expect(run.error.isEmpty)
    }

    @Test func versionNamesLibcurl() {
        let run = Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("carillon-nse 0."))
        #expect(run.output.contains("libcurl/"))
    }

    @Test(
        arguments: [
            ([], "Usage: carillon-nse"),
            (["frobnicate"], "carillon-nse: unknown command 'frobnicate'"),
            (["--frobnicate"], "carillon-nse: unknown option '--frobnicate'"),
            (["process"], "carillon-nse process: no PAYLOAD given"),
            (["process", "--jobs", "0", "a.json"], "'--jobs' needs a whole number from 1 to 256, not '0'"),
            (["process", "--budget", "soon", "a.json"], "'--budget' needs a number of seconds"),
            (["process", "--budget", "0.0004", "a.json"], "'--budget' needs at least 0.001 seconds (1 ms), not '0.0004'"),
            (["process", "--max-bytes", "-5", "a.json"], "'--max-bytes' needs a whole number"),
            (["process", "--tls-minimum", "1.4", "a.json"], "option '--tls-minimum' needs 1.0, 1.1, 1.2 or 1.3, not '1.4'"),
            (["process", "--no-forward-secrecy=yes", "a.json"], "option '--no-forward-secrecy' takes no value"),
            (["process", "--ca-file", "/nonexistent/ca.pem", "a.json"], "--ca-file '/nonexistent/ca.pem': no such file"),
            (["process", "-", "-"], "'-' (standard input) given more than once"),
            (["open", "--queue", "q", "-", "-"], "open: '-' (standard input) given more than once"),
            (["present", "--queue", "q", "-", "a.json", "-"], "present: '-' (standard input) given more than once"),
            (["drain", "--queue", "q"], "option '--container' is required"),
            (["open", "--queue", "q", "--at", "yesterday", "a.json"], "needs an ISO 8601 time"),
            (["batches"], "option '--queue' is required"),
        ] as [([String], String)])
    func badUsageExits64WithOneClearMessage(arguments: [String], message: String) {
        let run = Self.run(arguments)
        #expect(run.status == 64)
        #expect(run.error.contains(message), "\(run.error)")
        #expect(run.output.isEmpty)
    }

    @Test func standardInputIsAPayload() {
        let run = Self.run(["process", "-"], stdin: #"{"aps":{"alert":"hi","mutable-content":0}}"#)
        #expect(run.status == 0)
        #expect(run.output.contains(#""payload":"-","routed":false,"reason":"not-mutable""#))
    }

    @Test func standardInputThatIsNotAnObjectExits1() {
        let run = Self.run(["process", "-"], stdin: "[1,2,3]")
        #expect(run.status == 1)
        #expect(run.output.contains(#""reason":"invalid-payload""#))
        #expect(run.error == "carillon-nse: -: the JSON value is an array, not an object\n")
    }
}

/// Options declared once: the help line shows the default the command reads, and the typed read
/// checks the value.
@Suite struct OptionDeclarationTests {
    @Test func helpShowsTheDeclaredDefault() {
        #expect(
            PipelineOptions.budget.spec.help
                == "Time budget of each image download, redirects included; at least 0.001 (default 20).")
        #expect(PipelineOptions.maxBytes.spec.help == "Size cap of each image in bytes (default 10485760).")
        #expect(PipelineOptions.tlsMinimum.spec.valueName == "1.0|1.1|1.2|1.3")
        #expect(PipelineOptions.format.spec.valueName == "json|text|junit")
        #expect(ProcessCommand.options.map(\.name).count == Set(ProcessCommand.options.map(\.name)).count)
    }

    @Test func theReadGivesTheDefaultOrTheCheckedValue() throws {
        let none = try ParsedArguments.parse([], options: ProcessCommand.options)
        #expect(try PipelineOptions.budget.read(none) == DownloadLimits.standard.budget)
        #expect(try PipelineOptions.expireAfter.read(none) == .seconds(30))
        #expect(try PipelineOptions.tlsMinimum.read(none) == .v1_2)
        #expect(try ProcessCommand.Options.recursive.read(none) == false)
        let given = try ParsedArguments.parse(
            ["--budget", "0.25", "--tls-minimum", "1.3", "--format=text", "--recursive"], options: ProcessCommand.options)
        #expect(try PipelineOptions.budget.read(given) == .milliseconds(250))
        #expect(try PipelineOptions.tlsMinimum.read(given) == .v1_3)
        #expect(try PipelineOptions.format.read(given) == .text)
        #expect(try ProcessCommand.Options.recursive.read(given))
        let bad = try ParsedArguments.parse(["--tls-minimum", "1.4"], options: ProcessCommand.options)
        #expect(throws: UsageError(message: "option '--tls-minimum' needs 1.0, 1.1, 1.2 or 1.3, not '1.4'")) {
            try PipelineOptions.tlsMinimum.read(bad)
        }
    }
}
