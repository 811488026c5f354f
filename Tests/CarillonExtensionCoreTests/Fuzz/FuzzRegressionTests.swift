// Replays every saved fuzz input (TestAssets/Fuzz/Regressions/<target>/) through the fuzz targets' own
// checks (Tests/CarillonFuzzChecks). See TestAssets/Fuzz/README.md.

import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

// MARK: - The regression test

@Suite struct FuzzRegressionTests {
    /// One saved input: its target and file.
    struct Input: Sendable, CustomTestStringConvertible {
        var target: String
        var path: String
        var testDescription: String { target + "/" + (path as NSString).lastPathComponent }
    }

    static let regressions = Paths.testAssets("Fuzz/Regressions")

    /// Every file under `Regressions/<target>/` (hidden files and READMEs aside).
    static let inputs: [Input] = FuzzChecks.targets.flatMap { target in
        let folder = regressions + "/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") && $0 != "README.md" }.map { Input(target: target, path: folder + "/" + $0) }
    }

    @Test func everyRegressionFolderIsATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.regressions).filter {
            !$0.hasPrefix(".") && $0 != "README.md"
        }
        #expect(Set(folders).isSubset(of: FuzzChecks.targets), "unknown folders: \(folders)")
    }

    @Test(arguments: inputs)
    func replays(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
        do {
            switch input.target {
            case "FuzzPayload": try FuzzChecks.payload(bytes)
            case "FuzzImageVerifier", "FuzzImageDecoders": try FuzzChecks.imageVerifier(bytes, checkFile: true)
            case "FuzzReceipt": try FuzzChecks.receipt(bytes)
            case "FuzzAPIAnswers": try FuzzChecks.apiAnswers(bytes)
            case "FuzzEventQueueFile":
                try FuzzChecks.eventQueueFile(bytes, throughQueue: false)
                try FuzzChecks.eventQueueFile(bytes, throughQueue: true)
            case "FuzzArguments": try Self.runTool(bytes)
            case "FuzzHARImport": try FuzzChecks.harImport(bytes)
            case "FuzzPropertyList": try FuzzChecks.propertyList(bytes)
            case "FuzzZipArchive": try FuzzChecks.zipArchive(bytes)
            case "FuzzMachO": try FuzzChecks.machO(bytes)
            case "FuzzProvisioningProfile": try FuzzChecks.provisioningProfile(bytes)
            default: Issue.record("no checks for target \(input.target)")
            }
        } catch let failure as FuzzFailure {
            Issue.record("\(input.testDescription): \(failure.message)")
        }
    }

    /// CarillonCLI is not a dependency of this test target, so the arguments go through the built tool:
    /// once in the fuzz target's sandbox, and as parser probes. A probe puts `--help` right after a
    /// subcommand, so the tool only parses (and prints help, or a usage error) and never runs anything; its
    /// status says whether the parser accepts the rest, which must agree with `FuzzChecks.modelParse`, as
    /// must the canonical spelling of what the model read.
    static func runTool(_ bytes: [UInt8]) throws {
        let raw = FuzzChecks.arguments(bytes)
        let rest = Array(raw.dropFirst())
        for command in FuzzChecks.commandOptions.keys.sorted() {
            let model = FuzzChecks.modelParse(["--help"] + rest, command: command)
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

        let sandbox = FuzzChecks.makeSandbox()
        defer { FuzzScratch.remove(sandbox) }
        let arguments = FuzzChecks.sandboxed(raw, in: sandbox)
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
