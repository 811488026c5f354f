@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

// MARK: - verify

/// Each file's verification alone, `--reps` times: `ImageStreamVerifier` over its bytes in 16 KiB pieces
/// (what a download does) and `ImageVerifier.verify(fileAt:)` (reading the file back, as downloads did
/// before), e.g. on the 10 MiB JPEG.
func verify(_ options: Options) {
    let reps = options.int("--reps", default: 20)
    var fields: [String] = []
    for path in options.positionals {
        let bytes = readWhole(path)
        var streamed: [UInt64] = []
        var fromFile: [UInt64] = []
        for _ in 0..<reps {
            var start = now()
            if case .failure(let error) = ImageStreamVerifier.decide(bytes, pieceSize: 16 * 1024) {
                fail("\(path) did not verify: \(error)")
            }
            streamed.append(now() - start)
            start = now()
            do {
                _ = try ImageVerifier.verify(fileAt: path)
            } catch {
                fail("\(path) did not verify: \(error)")
            }
            fromFile.append(now() - start)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        fields.append("\"\(name)\":{\"stream\":\(summary(streamed)),\"file\":\(summary(fromFile))}")
    }
    print("{\"mode\":\"verify\",\(fields.joined(separator: ","))}")
}
