import Foundation

/// Paths inside the package.
public enum Paths {
    /// The package root, found from this file's place in `Tests/CarillonTestSupport/`.
    public static let packageRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }()

    /// A path under `TestAssets/`: images, payloads, servers, fuzz inputs.
    public static func testAssets(_ relative: String) -> String { packageRoot + "/TestAssets/" + relative }

    /// A path under `Tests/`: the golden fixtures of `ConformanceFixtures/`.
    public static func tests(_ relative: String) -> String { packageRoot + "/Tests/" + relative }

    /// The built `carillon-nse`, beside the test bundle in the build products directory.
    public static let tool: String = {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("carillon-nse").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return fallback.appendingPathComponent("carillon-nse").path
    }()
}
