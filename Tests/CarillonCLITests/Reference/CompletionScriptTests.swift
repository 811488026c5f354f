import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// The completion scripts in the real shells: each parses, and completes a partial command line. A shell
/// that is not installed fails its tests, naming its Debian package.
@Suite(.serialized) struct CompletionScriptTests {
    static func require(_ shell: CompletionShell) throws {
        try RequiredPackage.command(shell.rawValue, package: shell.rawValue)
    }

    /// A scratch directory with a payload file and a directory, where the shells complete paths.
    static func withScratch<T>(_ body: (TemporaryDirectory, [CompletionShell: String]) async throws -> T) async throws -> T {
        let scratch = TemporaryDirectory("completions")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.file("queue"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: scratch.file("payload.json")))
        var scripts: [CompletionShell: String] = [:]
        for shell in CompletionShell.allCases {
            let path = scratch.file("script." + shell.rawValue)
            try Data(shell.script(for: .current).utf8).write(to: URL(fileURLWithPath: path))
            scripts[shell] = path
        }
        return try await body(scratch, scripts)
    }

    @Test(arguments: [
        (CompletionShell.bash, "bash -n"), (.zsh, "zsh -n"), (.fish, "fish --no-execute"),
    ])
    func theShellAcceptsTheScript(shell: CompletionShell, check: String) async throws {
        try Self.require(shell)
        try await Self.withScratch { _, scripts in
            let run = try await CarillonTestSupport.shell("\(check) \(Shell.quote(scripts[shell]!))")
            #expect(run.status == 0, "\(check): \(run.standardError)")
            #expect(run.standardError.isEmpty)
        }
    }

    /// Partial command lines (the words so far, the last one being completed) and what completes them.
    static let cases: [(words: [String], expected: [String])] = [
        (["carillon-nse", "pro"], ["process"]),
        (["carillon-nse", "--v"], ["--version"]),
        (["carillon-nse", "process", "--for"], ["--format"]),
        (["carillon-nse", "process", "--format", ""], ["json", "junit", "text"]),
        (["carillon-nse", "process", "--tls-minimum", "1."], ["1.0", "1.1", "1.2", "1.3"]),
        (["carillon-nse", "process", "--container", ""], ["queue"]),
        (["carillon-nse", "process", "pay"], ["payload.json"]),
        (["carillon-nse", "drain", "--q"], ["--queue"]),
        (["carillon-nse", "upload", "--max"], ["--max-attempts"]),
        (["carillon-nse", "completions", ""], ["bash", "fish", "zsh"]),
        (["carillon-nse", "help", "up"], ["upload"]),
    ]

    /// bash: the script sourced, COMP_WORDS and COMP_CWORD set as bash sets them, the function called,
    /// COMPREPLY read.
    @Test(arguments: cases)
    func bashCompletes(words: [String], expected: [String]) async throws {
        try await Self.withScratch { scratch, scripts in
            let script = """
                cd \(Shell.quote(scratch.path)) && source \(Shell.quote(scripts[.bash]!))
                COMP_WORDS=(\(words.map(Shell.quote).joined(separator: " "))); COMP_CWORD=\(words.count - 1)
                \(BashCompletion.functionName(.current)); printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try await CarillonTestSupport.shell("bash -c \(Shell.quote(script))")
            #expect(run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.split(separator: "\n").map(String.init).sorted() == expected.sorted(), "\(words)")
        }
    }

    /// bash splits `--format=t` at the `=`: the value is still completed for `--format`.
    @Test func bashCompletesAValueAfterEquals() async throws {
        try await bashCompletes(words: ["carillon-nse", "process", "--format", "=", "t"], expected: ["text"])
    }

    /// fish: `complete -C` with the script sourced, as fish does when Tab is pressed.
    @Test(arguments: cases)
    func fishCompletes(words: [String], expected: [String]) async throws {
        try Self.require(.fish)
        try await Self.withScratch { scratch, scripts in
            let line = words.joined(separator: " ")
            let script = "cd \(Shell.quote(scratch.path)); and source \(Shell.quote(scripts[.fish]!)); and complete -C \(Shell.quote(line))"
            let run = try await CarillonTestSupport.shell("fish --no-config -c \(Shell.quote(script))")
            #expect(run.status == 0, "\(run.standardError)")
            let offered = run.standardOutput.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            // fish marks a directory with its slash.
            #expect(offered.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.sorted() == expected.sorted(), "\(words)")
        }
    }

    /// zsh: an interactive zsh under zpty with compinit and the script, Tab pressed at the end of the
    /// line; a wrapper around compadd writes down the matches it is given.
    @Test(.timeLimit(.minutes(1)), arguments: cases)
    func zshCompletes(words: [String], expected: [String]) async throws {
        try Self.require(.zsh)
        try await Self.withScratch { scratch, scripts in
            let matches = scratch.file("matches")
            let done = scratch.file("done")
            let setup = [
                "PS1=''; cd \(Shell.quote(scratch.path)); autoload -U compinit; compinit -u -D; source \(Shell.quote(scripts[.zsh]!))",
                "compadd() { if (( ${@[(I)-[OAD]]} )); then builtin compadd \"$@\"; return; fi; local -a got; "
                    + "builtin compadd -O got \"$@\"; print -rl -- $got >> \(Shell.quote(matches)); builtin compadd \"$@\"; }",
                "finished() { : > \(Shell.quote(done)); }; comppostfuncs=(finished); bindkey '^I' complete-word",
            ]
            let driver = """
                zmodload zsh/zpty
                zpty session 'zsh -f -i'
                \(setup.map { "zpty -w session \(Shell.quote($0))" }.joined(separator: "\n"))
                zpty -w -n session \(Shell.quote(words.joined(separator: " ")))$'\\t'
                for i in {1..200}; do [[ -e \(Shell.quote(done)) ]] && break; sleep 0.05; done
                zpty -d session
                """
            let run = try await CarillonTestSupport.shell("zsh -f -c \(Shell.quote(driver))")
            #expect(run.status == 0, "\(run.standardError)")
            let offered = (try? String(contentsOfFile: matches, encoding: .utf8)) ?? ""
            #expect(Set(offered.split(separator: "\n").map(String.init)) == Set(expected), "\(words)")
        }
    }
}
