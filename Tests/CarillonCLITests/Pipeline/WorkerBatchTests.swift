import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// How workers batch payloads: the batch size rule from a table, and the stream's batches and the
/// payloads given back, read from a real JSON Lines file.
@Suite struct WorkerBatchTests {
    static let sizes: [(size: Int, slowest: Duration, next: Int)] = [
        (1, .microseconds(20), 2),
        (2, .microseconds(20), 4),
        (16, .microseconds(999), 32),
        (32, .microseconds(20), 32),
        (0, .zero, 2),
        (32, .milliseconds(1), 1),
        (4, .seconds(3), 1),
        (1, .milliseconds(5), 1),
    ]

    @Test(arguments: sizes)
    func fastBatchesDoubleToTheMaximumAndASlowPayloadResetsToOne(size: Int, slowest: Duration, next: Int) {
        #expect(WorkerBatch.next(after: size, slowest: slowest) == next)
    }

    @Test func everyWorkerCanHoldAFullBatchInTheWindow() {
        for jobs in [1, 2, 3, 8, 256] {
            #expect(PayloadRunner.window(jobs: jobs) >= jobs * WorkerBatch.maximum, "jobs \(jobs)")
        }
    }

    /// Line names of a batch: `c.jsonl:N`'s N.
    static func lines(_ batch: [PayloadStream.Item]) -> [String] {
        batch.map { "\($0.index)=" + ($0.input.name.split(separator: ":").last.map(String.init) ?? "?") }
    }

    @Test func batchesAreInOrderAndPayloadsGivenBackComeFirstAndAlone() throws {
        let work = TemporaryDirectory("worker-batch")
        defer { work.remove() }
        let path = work.file("c.jsonl")
        try String(repeating: "{}\n", count: 10).write(toFile: path, atomically: true, encoding: .utf8)
        let stream = PayloadStream([.file(path, named: true)], limit: 1 << 20)
        let first = stream.next(upTo: 4)
        #expect(Self.lines(first) == ["0=1", "1=2", "2=3", "3=4"])
        stream.giveBack(first[3...])
        stream.giveBack(first[2..<3])
        #expect(Self.lines(stream.next(upTo: 4)) == ["2=3", "3=4"], "given back, lowest first, not mixed with new ones")
        #expect(Self.lines(stream.next(upTo: 5)) == ["4=5", "5=6", "6=7", "7=8", "8=9"])
        #expect(Self.lines(stream.next(upTo: 5)) == ["9=10"])
        #expect(stream.next(upTo: 5).isEmpty)
        #expect(stream.count == 10, "a payload given back is counted once")
    }

    @Test func aShardsBatchesSkipTheOtherShardsPositions() throws {
        let work = TemporaryDirectory("worker-batch-shard")
        defer { work.remove() }
        let path = work.file("c.jsonl")
        try String(repeating: "{}\n", count: 7).write(toFile: path, atomically: true, encoding: .utf8)
        let stream = PayloadStream([.file(path, named: true)], shard: PayloadStream.Shard("1/3"), limit: 1 << 20)
        #expect(Self.lines(stream.next(upTo: 8)) == ["0=2", "1=5"])
        #expect(stream.next(upTo: 8).isEmpty)
    }
}
