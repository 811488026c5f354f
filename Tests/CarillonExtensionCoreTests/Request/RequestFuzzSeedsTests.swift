import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

/// The request fuzz targets' checks hold on their seeds (`TestAssets/Fuzz/Corpus/FuzzCurlCommand`,
/// `FuzzFCMMessage`) and on every request in `TestAssets/Requests`, as `smoke.sh` starts from them.
@Suite struct RequestFuzzSeedsTests {
    static func files(_ folder: String) -> [String] {
        let root = Paths.testAssets(folder)
        let walker = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let name = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue,
                !name.hasSuffix(".md")
            {
                files.append(root + "/" + name)
            }
        }
        return files.sorted()
    }

    @Test func theChecksHoldOnEverySeed() throws {
        let curl = Self.files("Fuzz/Corpus/FuzzCurlCommand") + Self.files("Requests")
        let fcm = Self.files("Fuzz/Corpus/FuzzFCMMessage") + Self.files("Requests").filter { $0.hasSuffix(".json") }
        #expect(curl.count >= 10 && fcm.count >= 5)
        for path in curl {
            do {
                try FuzzChecks.curlCommand(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), everyPart: true)
            } catch let failure as FuzzFailure {
                Issue.record("\(path): \(failure.message)")
            }
        }
        for path in fcm {
            do {
                try FuzzChecks.fcmMessage(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            } catch let failure as FuzzFailure {
                Issue.record("\(path): \(failure.message)")
            }
        }
    }
}
