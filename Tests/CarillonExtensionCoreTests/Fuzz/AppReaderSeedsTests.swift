import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

/// The seeds of the app readers' fuzz targets (TestAssets/Fuzz/Corpus/, made by make_apps.py
/// --fuzz-seeds), and the generated app's own members, hold each target's invariants: the checks the
/// fuzzer runs pass on what the readers were made for.
@Suite struct AppReaderSeedsTests {
    static let targets = ["FuzzPropertyList", "FuzzZipArchive", "FuzzMachO", "FuzzProvisioningProfile"]

    static func check(_ target: String, _ bytes: [UInt8]) throws(FuzzFailure) {
        switch target {
        case "FuzzPropertyList": try FuzzChecks.propertyList(bytes)
        case "FuzzZipArchive": try FuzzChecks.zipArchive(bytes)
        case "FuzzMachO": try FuzzChecks.machO(bytes)
        default: try FuzzChecks.provisioningProfile(bytes)
        }
    }

    @Test(arguments: targets)
    func theSeedsHoldTheirTargetsInvariants(target: String) throws {
        let folder = Paths.testAssets("Fuzz/Corpus/" + target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(names.count >= 3)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            do { try Self.check(target, bytes) } catch { Issue.record("\(target)/\(name): \(error.message)") }
        }
    }

    /// The generated healthy app's members, each through its reader's checks.
    @Test func theGeneratedAppsMembersHoldThem() throws {
        let app = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        let members = [
            ("FuzzPropertyList", "/Info.plist"), ("FuzzPropertyList", "/PlugIns/NotificationService.appex/Info.plist"),
            ("FuzzMachO", "/Carillon"), ("FuzzProvisioningProfile", "/embedded.mobileprovision"),
            ("FuzzProvisioningProfile", "/PlugIns/NotificationService.appex/embedded.mobileprovision"),
        ]
        for (target, member) in members {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app + member)))
            do { try Self.check(target, bytes) } catch { Issue.record("\(member): \(error.message)") }
        }
    }
}
