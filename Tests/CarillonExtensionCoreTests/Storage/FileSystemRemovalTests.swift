import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Many files removed at once (a drain's receipts, on up to four threads: 200 files make four): each
/// result in its path's place, a file already gone removed, one that cannot be (a directory) said so,
/// and nothing else left.
@Suite struct FileSystemRemovalTests {
    @Test(arguments: [1, 63, 64, 200])
    func everyFileIsRemovedAndEachResultIsInItsPlace(count: Int) throws {
        let directory = TemporaryDirectory("removal")
        defer { directory.remove() }
        var paths: [String] = []
        var refused: Set<Int> = []
        for index in 0..<count {
            let path = directory.file("\(index).receipt")
            paths.append(path)
            switch index % 97 {
            case 5: continue  // never made: already gone is fine
            case 7:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                refused.insert(index)
            default: #expect(FileManager.default.createFile(atPath: path, contents: Data("r".utf8)))
            }
        }
        let results = FileSystem.removeFiles(paths)
        #expect(results.count == count)
        for (index, result) in results.enumerated() {
            if refused.contains(index) {
                #expect(result?.operation == "remove" && result?.path == paths[index], "\(index)")
            } else {
                #expect(result == nil, "\(index): \(String(describing: result))")
            }
        }
        #expect(directory.contents() == refused.sorted().map { "\($0).receipt" }.sorted())
    }
}
