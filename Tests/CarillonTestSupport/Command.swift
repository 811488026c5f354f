import Foundation

/// Runs a process to completion and collects its output and status.
public enum Command {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
        /// Standard output's lines, each parsed as a JSON object.
        public var jsonLines: [[String: Any]] {
            standardOutput.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
        }
    }

    /// Runs `executable` with `arguments`, feeding `input` to its standard input.
    ///
    /// Started with `posix_spawn` and waited for with `waitpid`, with files in a scratch directory for
    /// standard input, output and error — not Foundation's `Process` and pipes. Under the whole suite,
    /// `Process.waitUntilExit` now and then never returned for a child long gone, and a pipe created on
    /// one thread could be handed to a long-lived child spawned on another at that moment, so that its
    /// reader never saw the end. A file has no end to wait for, and `waitpid` answers for itself.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws
        -> Result
    {
        let scratch = TemporaryDirectory("command")
        defer { scratch.remove() }
        let inputPath = scratch.file("stdin")
        let outputPath = scratch.file("stdout")
        let errorPath = scratch.file("stderr")
        try (input ?? Data()).write(to: URL(fileURLWithPath: inputPath))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The child starts with no signal blocked and every signal at its default, whatever this test
        // process has set (a shell would do the same for a foreground command).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = ProcessInfo.processInfo.environment
        if let environment { variables.merge(environment) { $1 } }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // As Foundation reports it: the exit code, or the number of the signal that ended the child.
        let signal = status & 0x7F
        let code = signal == 0 ? (status >> 8) & 0xFF : signal
        let outputData = (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data()
        let errorData = (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data()
        return Result(
            status: code, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs the built `carillon-nse`.
    public static func tool(_ arguments: [String], input: Data? = nil) throws -> Result {
        try run(Paths.tool, arguments, input: input)
    }
}
