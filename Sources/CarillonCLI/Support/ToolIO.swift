@_spi(Tooling) import CarillonExtensionCore
import Synchronization

/// Where a command's text goes: the process's streams in the tool, memory in tests. (Not Swift's
/// `TextOutputStream`, whose `write` cannot report that a write failed.)
public protocol TextSink: Sendable {
    /// Writes text as it is (callers add newlines).
    func write(_ text: String)
    /// Why a write failed (a closed pipe, a full disk), once one has: nothing more reaches the reader.
    var failure: String? { get }
}

extension TextSink {
    public var failure: String? { nil }

    /// Writes one line a person reads — a message, a warning, a summary — shown by the one escaping
    /// rule (``Quoting/display(_:)``), then the newline that ends it: no character of a payload, a
    /// file name or a server's answer inside `text` reaches the terminal raw.
    public func line(_ text: String) { write(Quoting.display(text) + "\n") }
}

/// The streams and facts about the terminal that a command runs with.
public struct ToolIO: Sendable {
    public var standardOutput: any TextSink
    public var standardError: any TextSink
    /// Reads all of standard input, refusing more than `limit` bytes.
    public var readStandardInput: @Sendable (_ limit: Int) throws -> [UInt8]
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var standardErrorIsTerminal: Bool

    public init(
        standardOutput: any TextSink, standardError: any TextSink,
        readStandardInput: @escaping @Sendable (_ limit: Int) throws -> [UInt8], standardErrorIsTerminal: Bool
    ) {
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
        self.standardErrorIsTerminal = standardErrorIsTerminal
    }

    /// The real process streams.
    public static var process: ToolIO {
        ToolIO(
            standardOutput: FileStream(descriptor: 1), standardError: FileStream(descriptor: 2),
            readStandardInput: { limit in try FileSystem.readAll(descriptor: 0, limit: limit, path: "standard input") },
            standardErrorIsTerminal: system_isatty(2) == 1)
    }
}

/// A file descriptor written with whole-line `write` calls under a lock, so that lines from several
/// threads never interleave.
///
/// The first failed write (`EPIPE` from a reader gone away, `ENOSPC`, `EBADF`) is kept and every later
/// write is dropped: the run ends with exit 1 and one line on standard error (``CarillonTool``).
public final class FileStream: TextSink {
    private let descriptor: Int32
    /// The first failure, as the C library says it.
    private let state = Mutex<String?>(nil)
    /// Whether `state` holds a failure: read without the lock, which a write holds through its system
    /// call. Every worker asks after every payload, and waiting for the lock there was 6% of 10,000
    /// payloads' instructions with `--jobs 8` (callgrind: the mutex's slow path).
    private let failed = Atomic<Bool>(false)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public var failure: String? {
        guard failed.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0 }
    }

    public func write(_ text: String) {
        var text = text
        state.withLock { failure in
            guard failure == nil else { return }
            text.withUTF8 { buffer in
                do throws(FileSystemError) {
                    try FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(buffer), path: "")
                } catch {
                    failure = error.reason
                    failed.store(true, ordering: .releasing)
                }
            }
        }
    }
}

/// Output kept in memory, for tests.
public final class CapturedStream: TextSink {
    private let storage = Mutex("")

    public init() {}

    public func write(_ text: String) {
        storage.withLock { $0 += text }
    }

    public var text: String { storage.withLock { $0 } }
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}
