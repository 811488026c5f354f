@_spi(Tooling) import CarillonExtensionCore
import Foundation
import Synchronization

/// Records every call of a callback — a content handler, a completion — with the instant it came, so
/// that a test can assert "exactly once" and measure latency without blocking a Swift Concurrency thread.
public final class CallRecorder<Value: Sendable>: Sendable {
    private let calls = Mutex<[(value: Value, at: ContinuousClock.Instant)]>([])

    public init() {}

    /// The callback to hand to the code under test.
    public func record(_ value: Value) {
        let now = ContinuousClock.now
        calls.withLock { $0.append((value, now)) }
    }

    public var count: Int { calls.withLock { $0.count } }
    public var values: [Value] { calls.withLock { $0.map(\.value) } }
    /// When the first call came, if it has.
    public var firstInstant: ContinuousClock.Instant? { calls.withLock { $0.first?.at } }

    /// Waits (without blocking a thread) for the first call; nil when none came within `timeout`.
    public func first(within timeout: Duration) async -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let first = calls.withLock({ $0.first?.value }) { return first }
            if ContinuousClock.now >= deadline { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

extension NotificationService {
    /// `waitUntilFinished()` on a thread of its own, so that the blocking wait holds neither one of
    /// Swift Concurrency's few threads nor one of Dispatch's (which the downloads themselves run on);
    /// returns how long the wait took, measured on that thread.
    @discardableResult
    public func finished() async -> Duration {
        (try? await onOwnThread {
            let start = ContinuousClock.now
            self.waitUntilFinished()
            return ContinuousClock.now - start
        }) ?? .zero
    }
}

/// Runs blocking work (a child process, a download, a wait) on a new thread and awaits it.
///
/// Not on Swift Concurrency's threads (there may be only two, and timing tests share them), and not on
/// Dispatch's global queue either: the pipeline's downloads block its threads, and on Linux it adds
/// threads slowly, so blocking work queued there can wait for seconds.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
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
