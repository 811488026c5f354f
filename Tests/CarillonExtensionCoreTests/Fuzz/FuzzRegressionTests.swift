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

    /// Every file under `Regressions/<target>/` (hidden files and READMEs aside). `FuzzArguments`' inputs
    /// are replayed by CarillonCLITests' `FuzzArgumentRegressionTests`, where the tool's declarations,
    /// which its model and sandbox are made from, can be seen.
    static let inputs: [Input] = FuzzChecks.targets.filter { $0 != "FuzzArguments" }.flatMap { target in
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
            case "FuzzHARImport": try FuzzChecks.harImport(bytes)
            case "FuzzResultBundle": try FuzzChecks.resultBundle(bytes)
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
}
