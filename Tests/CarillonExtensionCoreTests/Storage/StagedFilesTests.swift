import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Every way of staging a file is counted among the staged files until it is discarded, published or
/// not: what a signal removes (the CLI's Interruption) is exactly what is still unpublished.
@Suite struct StagedFilesTests {
    @Test func eachStagingIsCountedUntilDiscarded() throws {
        let work = TemporaryDirectory("staged")
        defer { work.remove() }
        let (descriptor, streamed) = try FileSystem.beginStaging(in: work.path)
        FileSystem.closeDescriptor(descriptor)
        let whole = try FileSystem.stage([1, 2, 3], in: work.path, synced: false)
        #expect(StagedFiles.contains(streamed.temporaryPath) && StagedFiles.contains(whole.temporaryPath))
        #expect(try whole.publish(to: work.file("out"), replace: true) == .published)
        whole.discard()
        streamed.discard()
        #expect(work.contents() == ["out"], "nothing staged left")
        #expect(!StagedFiles.contains(streamed.temporaryPath) && !StagedFiles.contains(whole.temporaryPath))
        _ = try FileSystem.publishAtomically([4], to: work.file("other"), synced: false)
        let writer = try ResultBundleWriter(
            path: work.file("b.bundle"),
            header: .init(tool: "0", shard: Shard(index: 0, count: 1)!, rule: .position, options: [], started: .now()))
        let bundleStaged = work.contents().filter { $0.hasPrefix(".tmp-") }.map(work.file)
        #expect(bundleStaged.count == 1 && bundleStaged.allSatisfy(StagedFiles.contains), "\(bundleStaged)")
        writer.discard()
        #expect(work.contents().sorted() == ["other", "out"])
        #expect(!bundleStaged.contains(where: StagedFiles.contains), "forgotten once discarded")
    }
}
