import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// The files the declarations generate (the command reference, the man page, the completion scripts)
/// compared with the repository's copies under `Documentation/`: a declaration changed without them
/// being regenerated fails here. Rewrite them on purpose with
/// `CARILLON_WRITE_FIXTURES=1 swift test --filter GeneratedReferenceTests`.
@Suite struct GeneratedReferenceTests {
    static let documentation = Paths.packageRoot + "/Documentation/"

    static var rewriting: Bool { ProcessInfo.processInfo.environment["CARILLON_WRITE_FIXTURES"] == "1" }

    static let files = GeneratedReference.files(.current)

    @Test(arguments: files.map(\.path))
    func theRepositoryCopyIsCurrent(path: String) throws {
        let generated = try #require(Self.files.first { $0.path == path }).text
        let url = URL(fileURLWithPath: Self.documentation + path)
        if Self.rewriting {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(generated.utf8).write(to: url, options: .atomic)
            return
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(
            committed == generated,
            "Documentation/\(path) is not what the declarations generate; re-record with CARILLON_WRITE_FIXTURES=1 if the change is intended"
        )
    }

    /// No generated file is left behind by a command that went away.
    @Test func noStaleReferencePage() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: Self.documentation + "Reference")
        let generated = Set(Self.files.map(\.path).filter { $0.hasPrefix("Reference/") }.map { String($0.dropFirst("Reference/".count)) })
        #expect(Set(pages) == generated)
    }

    /// The built tool prints the same scripts as the files kept in the repository.
    @Test(arguments: CompletionShell.allCases)
    func theToolPrintsTheScript(shell: CompletionShell) async throws {
        let run = try await tool(["completions", shell.rawValue])
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput == shell.script(for: .current))
    }

    @Test(arguments: [
        (["completions"], "carillon-nse completions: no SHELL given (bash, zsh or fish)"),
        (["completions", "tcsh"], "carillon-nse completions: no completion script for 'tcsh': SHELL is bash, zsh or fish"),
        (["completions", "bash", "zsh"], "carillon-nse completions: unexpected argument 'zsh'"),
    ])
    func aShellItHasNoScriptForIsAUsageError(arguments: [String], message: String) async throws {
        let run = try await tool(arguments)
        #expect(run.status == 64)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError == message + "\nRun 'carillon-nse completions --help' for usage.\n")
    }

    /// groff reads the man page without a warning, and `man -l` renders every command's section.
    @Test func theManPageRenders() async throws {
        let page = Self.documentation + "carillon-nse.1"
        try RequiredPackage.command("groff", package: "groff-base")
        try RequiredPackage.command("man", package: "man-db")
        try RequiredPackage.command("col", package: "bsdextrautils")
        let warnings = try await shell("groff -k -man -Tutf8 -ww -z \(Shell.quote(page))")
        #expect(warnings.status == 0)
        #expect(warnings.standardError.isEmpty)
        let rendered = try await shell("MANWIDTH=100 man -l \(Shell.quote(page)) | col -b")
        #expect(rendered.status == 0)
        for command in CarillonTool.commands {
            #expect(rendered.standardOutput.contains("carillon-nse \(command.name)"))
        }
        #expect(rendered.standardOutput.contains("--tls-minimum 1.0|1.1|1.2|1.3"))
        #expect(rendered.standardOutput.contains("EXIT STATUS"))
    }

    /// Every command says when it succeeds and when it was called wrongly, and uses only the statuses
    /// the tool defines, each once, in order.
    @Test(arguments: CarillonTool.commands.map { $0.name })
    func everyCommandDeclaresItsStatuses(command: String) throws {
        let codes = try #require(CarillonTool.commands.first { $0.name == command }).exitStatuses.map(\.code)
        #expect(codes.first == CarillonTool.exitSuccess)
        #expect(codes.last == CarillonTool.exitUsage)
        #expect(codes == codes.sorted() && Set(codes).count == codes.count)
        #expect(Set(codes).isSubset(of: CarillonTool.exitStatuses.map(\.code)))
    }

    /// `--help` prints the same exit statuses as the reference pages and the man page.
    @Test(arguments: CarillonTool.commands.map { $0.name })
    func helpPrintsTheDeclaredExitStatuses(command: String) throws {
        let type = try #require(CarillonTool.commands.first { $0.name == command })
        #expect(type.help.hasPrefix("Usage: \(type.usage)\n"))
        #expect(type.help.contains(ExitStatus.help(type.exitStatuses) + "\n"))
        #expect(type.help.contains(optionsHelp(type.options + [CarillonTool.helpOption])))
    }
}
