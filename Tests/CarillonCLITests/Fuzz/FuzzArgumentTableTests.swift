import CarillonFuzzChecks
import Testing

@testable import CarillonCLI

/// `FuzzArguments` builds its model and its sandbox from the tool's own declarations
/// (`FuzzChecks.OptionTable`, made at run time: an option is declared once, in its command). What the
/// sandbox relies on is checked here, in `swift test`, rather than only by the fuzz smoke run at the end
/// of CI: no option whose placeholder names a path is declared as text, or it would reach the tool
/// unmoved, outside the sandbox.
@Suite struct FuzzArgumentTableTests {
    /// The table of every command's options (`--help` included), as the fuzz target makes it.
    static let table = FuzzChecks.OptionTable(
        CarillonTool.commands.map { command in
            (command.name, (command.options + [CarillonTool.helpOption]).map(declared))
        })

    static func declared(_ option: OptionSpec) -> FuzzChecks.OptionTable.Declared {
        FuzzChecks.OptionTable.Declared(
            name: option.name, placeholder: option.valueName, isDirectory: option.value == .directory, isFile: option.value == .file,
            repeatable: option.repeatable)
    }

    @Test func theSandboxCanTrustEveryDeclaration() {
        #expect(Self.table.problems.isEmpty, "\(Self.table.problems)")
        #expect(Set(Self.table.options.keys) == Set(CarillonTool.commands.map { $0.name }))
        #expect(Self.table.repeatable["process"] == ["--header"])
        #expect(Self.table.options["process"]?["--container"] == .directory)
        #expect(Self.table.options["process"]?["--ca-file"] == .file)
        #expect(Self.table.options["process"]?["--budget"] == .text)
        #expect(Self.table.options["process"]?["--recursive"] == FuzzChecks.OptionValue.none)
    }

    /// A path declared as text is named, whatever its placeholder's spelling; a path declared as one is not.
    @Test(arguments: [
        ("DIR", false, false, true), ("FILE.zip", false, false, true), ("PEM", false, false, true), ("PATH", false, false, true),
        ("N", false, false, false), ("DIR", true, false, false), ("APP.ipa", false, true, false),
    ])
    func anOptionThatNamesAPathButIsTextIsAProblem(placeholder: String, isDirectory: Bool, isFile: Bool, problem: Bool) {
        let option = FuzzChecks.OptionTable.Declared(
            name: "--where", placeholder: placeholder, isDirectory: isDirectory, isFile: isFile, repeatable: false)
        #expect(FuzzChecks.OptionTable([("command", [option])]).problems.isEmpty == !problem)
    }
}
