import CarillonFuzzChecks
import Testing

@testable import CarillonCLI

/// `FuzzArguments` builds its command lines from `FuzzChecks.commandOptions` and `repeatableOptions`,
/// and stops at once when they no longer describe the tool. That check ran only in the fuzz smoke run,
/// at the end of CI, so a new option failed CI late (replay's `--match-ignore-query` did). The same
/// check, here, fails in `swift test` instead.
@Suite struct FuzzArgumentTableTests {
    @Test func theFuzzTablesDescribeEveryCommandsOptions() {
        #expect(Set(CarillonTool.commands.map { $0.name }) == Set(FuzzChecks.commandOptions.keys))
        for command in CarillonTool.commands {
            let options = command.options + [CarillonTool.helpOption]
            let table = FuzzChecks.commandOptions[command.name] ?? [:]
            #expect(Set(options.map(\.name)) == Set(table.keys), "FuzzChecks.commandOptions[\(command.name)]")
            for option in options {
                #expect(
                    option.repeatable == FuzzChecks.repeatableOptions.contains(option.name),
                    "FuzzChecks.repeatableOptions: \(command.name) \(option.name)")
                #expect(
                    (option.valueName != nil) == (table[option.name].map { $0 != .none } ?? false),
                    "FuzzChecks.commandOptions[\(command.name)][\(option.name)] takes a value or not as the tool does")
            }
        }
    }
}
