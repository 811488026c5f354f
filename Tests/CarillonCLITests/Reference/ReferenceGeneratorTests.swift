import Testing

@testable import CarillonCLI

/// The generators' pure parts, from tables: usage lines, escaping for each output, how each kind of
/// value completes.
@Suite struct ReferenceGeneratorTests {
    static let queue = OptionSpec(name: "--queue", valueName: "DIR", help: "The queue.", value: .directory, isRequired: true)
    static let at = OptionSpec(name: "--at", valueName: "ISO8601", help: "The instant.", defaultValue: "now")
    static let suppress = OptionSpec(name: "--suppress", valueName: nil, help: "Show nothing.")
    static let format = OptionSpec(
        name: "--format", valueName: "json|text", help: "The format.", defaultValue: "json", value: .choices(["json", "text"]))
    static let budget = OptionSpec(
        name: "--budget", valueName: "SECONDS", help: "The budget.", defaultValue: "20", discussion: "At least 1 ms.")
    static let payload = ArgumentSpec(name: "PAYLOAD", value: .file, about: "A payload.", repeats: true)

    @Test(arguments: [
        ([queue], [], "tool drain --queue DIR"),
        ([queue, at, suppress], [payload], "tool drain --queue DIR [--at ISO8601] [--suppress] PAYLOAD..."),
        (
            [queue, at, suppress, format, OptionSpec(name: "--jobs", valueName: "N", help: "")], [payload],
            "tool drain --queue DIR [options] PAYLOAD..."
        ),
        ([], [ArgumentSpec(name: "SHELL", value: .text, about: "")], "tool drain SHELL"),
    ])
    func usageLine(options: [OptionSpec], arguments: [ArgumentSpec], expected: String) {
        #expect(Usage.line(command: "tool drain", options: options, arguments: arguments) == expected)
    }

    /// The discussion is for the reference pages and the man page; `--help` and the completions keep the
    /// one sentence.
    @Test func theDiscussionStaysOutOfHelp() {
        #expect(Self.budget.help == "The budget (default 20).")
        #expect(Self.budget.fullHelp == "The budget (default 20). At least 1 ms.")
        #expect(Self.at.fullHelp == Self.at.help)
        #expect(optionsHelp([Self.budget]) == "  --budget SECONDS  The budget (default 20).")
        #expect(ManPage.option(Self.budget) == [".TP", #"\fB\-\-budget\fR \fISECONDS\fR"#, "The budget (default 20). At least 1 ms."])
        #expect(ZshCompletion.optionSpec(Self.budget) == "--budget=[The budget (default 20).]:SECONDS: ")
        #expect(FishCompletion.optionFlags(Self.budget) == "-l budget -x -d 'The budget (default 20).'")
    }

    @Test func theHelpLineAddsTheDefault() {
        #expect(Self.at.help == "The instant (default now).")
        #expect(Self.queue.help == "The queue.")
        #expect(ValueKind.path(placeholder: "DIR") == .directory)
        #expect(ValueKind.path(placeholder: "FILE.html") == .file)
        #expect(Self.suppress.value == ValueKind.none)
    }

    @Test(arguments: [
        ("--tls-minimum", #"\-\-tls\-minimum"#),
        (#"C:\dir"#, #"C:\edir"#),
        (".starts with a dot", #"\&.starts with a dot"#),
        ("'quoted", #"\&'quoted"#),
        ("mid.dle", "mid.dle"),
    ])
    func roffText(plain: String, roff: String) {
        #expect(ManPage.text(plain) == roff)
    }

    @Test(arguments: [
        ("its *.json files", #"its \*.json files"#),
        ("a|b", #"a\|b"#),
        ("Bearer <key>", #"Bearer \<key\>"#),
        ("presentation []", #"presentation \[\]"#),
        ("plain words", "plain words"),
    ])
    func markdownText(plain: String, markdown: String) {
        #expect(MarkdownReference.escape(plain) == markdown)
    }

    @Test func markdownTables() {
        #expect(
            MarkdownReference.optionTable([Self.queue, Self.format]) == [
                "| option | value | default | what it does |", "|---|---|---|---|",
                "| `--queue` | `DIR` | required | The queue. |",
                "| `--format` | `json\\|text` | `json` | The format. |",
            ])
        let header = OptionSpec(name: "--header", valueName: "TEXT", help: "Also.", repeatable: true)
        #expect(MarkdownReference.optionTable([header]).last == "| `--header` | `TEXT` | repeatable | Also. |")
        #expect(MarkdownReference.optionTable([Self.budget]).last == "| `--budget` | `SECONDS` | `20` | The budget. At least 1 ms. |")
        #expect(MarkdownReference.statusTable([ExitStatus(code: 64, meaning: "Bad usage.")]).last == "| 64 | Bad usage. |")
    }

    @Test(arguments: [
        (queue, "--queue=[The queue.]:DIR:_files -/"),
        (format, "--format=[The format (default json).]:json|text:(json text)"),
        (suppress, "--suppress[Show nothing.]"),
        (at, "--at=[The instant (default now).]:ISO8601: "),
        (OptionSpec(name: "--x", valueName: "A:B", help: "[a]: \\ b"), #"--x=[\[a\]\: \\ b]:A\:B: "#),
        (OptionSpec(name: "--header", valueName: "'N: V'", help: "Also.", repeatable: true), "*--header=[Also.]:'N\\: V': "),
    ])
    func zshOptionSpec(option: OptionSpec, spec: String) {
        #expect(ZshCompletion.optionSpec(option) == spec)
    }

    @Test(arguments: [
        (queue, "-l queue -x -a '(__fish_complete_directories)' -d 'The queue.'"),
        (format, "-l format -x -a 'json text' -d 'The format (default json).'"),
        (suppress, "-l suppress -d 'Show nothing.'"),
        (at, "-l at -x -d 'The instant (default now).'"),
        (
            OptionSpec(name: "--key-file", valueName: "FILE", help: #"It's a \ file"#, value: .file),
            #"-l key-file -r -F -d 'It\'s a \\ file'"#
        ),
    ])
    func fishOptionFlags(option: OptionSpec, flags: String) {
        #expect(FishCompletion.optionFlags(option) == flags)
    }

    @Test(arguments: [
        (ValueKind.file, "-f" as String?), (.directory, "-d"), (.choices(["a", "it's"]), #"-W 'a it'\''s'"#), (.text, nil), (.none, nil),
    ])
    func bashCompgen(value: ValueKind, arguments: String?) {
        #expect(BashCompletion.compgen(value) == arguments)
    }

    /// A command's branch in the bash script: options whose values complete alike share a case.
    @Test func bashCommandBranch() {
        let command = CommandReference(
            name: "open", summary: "", usage: "", options: [Self.queue, Self.at, Self.suppress, Self.format],
            arguments: [Self.payload], exitStatuses: [])
        #expect(
            BashCompletion.commandBody(command, function: "_t") == [
                "case $prev in",
                "--queue) _t_reply -d; return 0 ;;",
                "--at) return 0 ;;",
                "--format) _t_reply -W 'json text'; return 0 ;;",
                "esac",
                "if [[ $cur == -* ]]; then",
                "    _t_reply -W '--queue --at --suppress --format'",
                "else",
                "    _t_reply -f",
                "fi",
            ])
    }

    @Test func exitStatusHelpWrapsWithAHangingIndent() {
        let statuses = [
            ExitStatus(code: 0, meaning: "Fine."),
            ExitStatus(code: 64, meaning: "one two three four five six"),
        ]
        #expect(ExitStatus.help(statuses, width: 20) == "Exit status:\n  0   Fine.\n  64  one two three\n      four five six")
    }

    @Test(arguments: [
        ("", 10, [String]()),
        ("a b c", 3, ["a b", "c"]),
        ("averyveryverylongword b", 5, ["averyveryverylongword", "b"]),
        ("  spaced   out  ", 20, ["spaced out"]),
    ])
    func textWrap(text: String, width: Int, lines: [String]) {
        #expect(TextWrap.lines(text, width: width) == lines)
    }
}
