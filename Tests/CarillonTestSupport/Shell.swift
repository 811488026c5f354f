import Foundation

/// Runs a `/bin/sh -c` script, for what only a shell does plainly: closed descriptors (`>&-`), a umask,
/// a pipeline. The script sees `$TOOL` (the built `carillon-nse`) and whatever `environment` adds.
public enum Shell {
    public static func run(_ script: String, environment: [String: String] = [:]) throws -> Command.Result {
        try Command.run("/bin/sh", ["-c", script], environment: environment.merging(["TOOL": Paths.tool]) { $1 })
    }

    /// `text` quoted for a shell script.
    public static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The built tool, run off Swift's cooperative threads: a test that waits for a process on one of them
/// starves the async tests running beside it (two threads on two cores).
public func tool(_ arguments: [String], input: Data? = nil) async throws -> Command.Result {
    try await onOwnThread { try Command.tool(arguments, input: input) }
}

/// ``Shell/run(_:environment:)``, off Swift's cooperative threads.
public func shell(_ script: String, environment: [String: String] = [:]) async throws -> Command.Result {
    try await onOwnThread { try Shell.run(script, environment: environment) }
}
