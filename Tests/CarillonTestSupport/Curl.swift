import Foundation

/// Fetches a small text resource with the `curl` command (to read the test server's stats without
/// going through the code under test).
public enum Curl {
    public static func get(_ url: String, caFile: String) throws -> String {
        let result = try Command.run("/usr/bin/env", ["curl", "-sS", "--cacert", caFile, "--max-time", "5", url])
        return result.standardOutput
    }
}

extension Curl {
    /// Downloads `url` with the `curl` command, following redirects: the reference bytes an attachment
    /// must equal. (Not through `Command.run`, which reads standard error on Dispatch's global queue.)
    public static func bytes(_ url: String, caFile: String) throws -> Data {
        let output = TemporaryDirectory("curl-reference")
        defer { output.remove() }
        let file = output.file("body")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // --compressed: the bytes as the extension gets them, decoded (SPEC §2, round 3).
        process.arguments = ["curl", "-sS", "-L", "--compressed", "--cacert", caFile, "--max-time", "20", "-o", file, url]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LocalServerProcess.StartError(description: "curl \(url) exited with \(process.terminationStatus)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: file))
    }
}
