/// How many payloads a worker takes from the stream at once: one while payloads are slow (a download,
/// a wait for a shared one), so that slow payloads spread over the workers as before; doubling up to
/// ``maximum`` while they are fast, so that fast ones cost one lock round-trip on the stream, one on the
/// printer and one write(2) per batch instead of per payload.
enum WorkerBatch {
    /// The most payloads a worker takes at once. With ``PayloadRunner/window(jobs:)`` at least
    /// `jobs * 32`, every worker can hold a full batch.
    static let maximum = 32

    /// A payload slower than this is slow: its worker prints what it has done, gives the rest of its
    /// batch back to the stream for the other workers, and takes one payload next.
    static let slow = Duration.milliseconds(1)

    /// The next batch's size after a batch of `size` whose slowest payload took `slowest`.
    static func next(after size: Int, slowest: Duration) -> Int {
        slowest >= slow ? 1 : min(maximum, max(1, size) * 2)
    }
}
