@_spi(Tooling) import CarillonExtensionCore
import Testing

@testable import CarillonCLI

/// The progress line's words from a table of what a run has done (SPEC §6c).
@Suite struct ProgressLineTests {
    static func snapshot(
        shard: String? = nil, positions: Int = 0, bytes: Int = 0, ended: Bool = false, total: ProgressLine.InputTotal?, done: Int,
        images: Int = 0, fellBack: Int = 0, seconds: Double
    ) -> ProgressLine.Snapshot {
        ProgressLine.Snapshot(
            shard: shard.flatMap { Shard($0) }, input: InputProgress(positions: positions, bytesRead: bytes, ended: ended), total: total,
            done: done, images: images, fellBack: fellBack, elapsed: .milliseconds(Int(seconds * 1000)))
    }

    static let cases: [(ProgressLine.Snapshot, String)] = [
        (
            snapshot(shard: "1/4", bytes: 4_600_000, total: .bytes(12_300_000), done: 1140, images: 8, fellBack: 31, seconds: 0.5),
            "progress: shard 1/4, 37% of 12.3 MB read, 1140 payloads at 2280/s, 8 images fetched, 31 fell back, about 1 s left"
        ),
        (
            snapshot(positions: 3, total: .payloads(5), done: 2, images: 2, fellBack: 2, seconds: 1.2),
            "progress: 60% of 5 payloads read, 2 payloads at 2/s, 2 images fetched, 2 fell back, about 1 s left"
        ),
        (
            snapshot(positions: 250, total: .payloads(1000), done: 250, images: 1, seconds: 30),
            "progress: 25% of 1000 payloads read, 250 payloads at 8/s, 1 image fetched, 0 fell back, about 1 min 30 s left"
        ),
        (
            snapshot(bytes: 1_800_000_000, total: .bytes(7_200_000_000), done: 1, seconds: 3600),
            "progress: 25% of 7.2 GB read, 1 payload at 0/s, 0 images fetched, 0 fell back, about 3 h 0 min left"
        ),
        // Standard input: no total, so no share and no estimate.
        (
            snapshot(positions: 50, total: nil, done: 50, images: 3, seconds: 2),
            "progress: 50 payloads at 25/s, 3 images fetched, 0 fell back"
        ),
        // Read to the end: 100%, and no estimate while the last payloads finish.
        (
            snapshot(positions: 5, ended: true, total: .payloads(5), done: 4, seconds: 2),
            "progress: 100% of 5 payloads read, 4 payloads at 2/s, 0 images fetched, 0 fell back"
        ),
        (
            snapshot(total: .bytes(512), done: 0, seconds: 0),
            "progress: 0% of 512 bytes read, 0 payloads at 0/s, 0 images fetched, 0 fell back"
        ),
    ]

    @Test(arguments: cases.indices)
    func theLineSaysWhatTheRunHasDone(index: Int) {
        #expect(ProgressLine.text(Self.cases[index].0) == Self.cases[index].1)
    }
}
