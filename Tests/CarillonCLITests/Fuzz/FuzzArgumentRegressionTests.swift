import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// Replays every saved `FuzzArguments` input (`TestAssets/Fuzz/Regressions/FuzzArguments/`) through the
/// built tool, with the model and the sandbox made from the tool's declarations (which is why these
/// inputs are replayed here, and the other targets' by `FuzzRegressionTests`, whose target cannot see the
/// tool's types). A probe puts `--help` right after a subcommand, so the tool only parses (and prints help,
/// or a usage error) and never runs anything; its status says whether the parser accepts the rest, which
/// must agree with `FuzzChecks.modelParse`, as must the canonical spelling of what the model read. Then
/// the whole command line runs once in the fuzz target's sandbox.
@Suite struct FuzzArgumentRegressionTests {
    static let inputs: [String] = {
        let folder = Paths.testAssets("Fuzz/Regressions/FuzzArguments")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { folder + "/" + $0 }
    }()

    @Test func thereAreInputs() { #expect(!Self.inputs.isEmpty) }

    @Test(arguments: inputs)
    func replays(_ path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let table = FuzzArgumentTableTests.table
        let raw = FuzzChecks.arguments(bytes)
        let rest = Array(raw.dropFirst())
        for command in table.options.keys.sorted() {
            let model = FuzzChecks.modelParse(["--help"] + rest, command: command, in: table)
            let probe = try Command.run(Paths.tool, [command, "--help"] + rest)
            #expect(
                probe.status == (model == nil ? 64 : 0),
                "\(command) --help \(rest): exit \(probe.status), the rules say \(model == nil ? "refuse" : "accept"); \(probe.standardError.prefix(300))"
            )
            if let model {
                let canonical = [command] + FuzzChecks.canonicalSpelling(model)
                let again = try Command.run(Paths.tool, canonical)
                #expect(again.status == 0, "\(canonical): exit \(again.status); \(again.standardError.prefix(300))")
            }
        }

        let sandbox = FuzzSandbox()
        let arguments = FuzzChecks.sandboxed(raw, in: sandbox.root, table: table)
        sandbox.prepare(for: arguments)
        defer { FuzzScratch.remove(sandbox.root) }
        let result = try Command.run(Paths.tool, arguments, input: Data(FuzzChecks.sandboxPayload))
        #expect(
            FuzzChecks.exitStatuses.contains(result.status), "exit status \(result.status); stderr: \(result.standardError.prefix(500))")
        if result.status == 64 {
            #expect(
                result.standardError.contains(arguments.count <= 1 && bytes.isEmpty ? "Usage:" : "for usage."),
                "a usage error without a usage hint: \(result.standardError.prefix(500))")
        }
    }
}
