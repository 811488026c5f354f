import Foundation

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
