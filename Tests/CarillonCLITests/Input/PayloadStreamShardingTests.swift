@_spi(Tooling) import CarillonExtensionCore
import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// The stream's side of a fleet (SPEC §6c), without a download: `--shard-by image` over payload files
/// and JSON Lines alike, each payload's position over all inputs, and the whole input's digest.
@Suite struct PayloadStreamShardingTests {
    static func payload(_ image: String?) -> String { Payloads.routed(image: image) }

    /// Files and lines mixed: three images over nine payloads, two without an image, one not routed.
    static func inputs(in work: TemporaryDirectory) throws -> [PayloadInput] {
        let images = ["https://cdn.example/a.png", "https://cdn.example/b.png", "https://cdn.example/c.png"]
        var lines = (0..<6).map { payload(images[$0 % 3]) }
        lines.insert(payload(nil), at: 2)
        lines.insert(#"{"aps":{"alert":"not routed"},"carillon":{"image":"https://cdn.example/a.png"}}"#, at: 4)
        try lines.joined(separator: "\n").write(toFile: work.file("b.jsonl"), atomically: true, encoding: .utf8)
        _ = try work.write("a.json", payload(images[1]))
        _ = try work.write("c.json", payload(nil))
        return [.file(work.file("a.json"), named: true), .file(work.file("b.jsonl"), named: true), .file(work.file("c.json"), named: true)]
    }

    static let io = ToolIO(
        standardOutput: CapturedStream(), standardError: CapturedStream(), readStandardInput: { _ in [] }, standardErrorIsTerminal: false)

    static func drain(_ stream: PayloadStream) -> [PayloadStream.Item] {
        var items: [PayloadStream.Item] = []
        while let item = stream.next() { items.append(item) }
        return items
    }

    @Test func byImageEveryPayloadOfAnImageIsInOneShardAndTheRestGoByPosition() throws {
        let work = TemporaryDirectory("stream-image")
        defer { work.remove() }
        let inputs = try Self.inputs(in: work)
        var shardOf: [String: Int] = [:]
        var positions: [Int] = []
        for index in 0..<3 {
            let stream = PayloadStream(inputs, shard: Shard(index: index, count: 3), rule: .image, downloadOptions: "x", limit: 1 << 20)
            for item in Self.drain(stream) {
                positions.append(item.position)
                guard case .success(let payload) = item.input.readPayload(io: Self.io) else { continue }
                if let url = ShardRule.fetchedImage(payload) {
                    #expect(shardOf[url.absoluteString, default: index] == index, "\(url) in two shards")
                    shardOf[url.absoluteString] = index
                } else {
                    #expect(item.position % 3 == index, "no image: by position")
                }
            }
        }
        #expect(positions.sorted() == Array(0..<10), "every position once: \(positions)")
        #expect(shardOf.count == 3)
    }

    @Test func theInputsDigestIsItsNamesAndBytes() throws {
        let work = TemporaryDirectory("stream-digest")
        defer { work.remove() }
        let inputs = try Self.inputs(in: work)
        func digest(_ inputs: [PayloadInput], shard: Int) -> ResultBundle.Input {
            let stream = PayloadStream(inputs, shard: Shard(index: shard, count: 2), digestsInput: true, limit: 1 << 20)
            _ = Self.drain(stream)
            return stream.inputIdentity(whole: true)
        }
        let first = digest(inputs, shard: 0)
        #expect(first.payloads == 10 && first.sha256.count == 64)
        #expect(digest(inputs, shard: 1) == first, "every shard reads the whole input")
        #expect(digest(Array(inputs.reversed()), shard: 0).sha256 != first.sha256, "another order is another input")
        try Self.payload(nil).write(toFile: work.file("c.json"), atomically: true, encoding: .utf8)
        #expect(digest(inputs, shard: 0) == first, "the same bytes")
        try (Self.payload(nil) + " ").write(toFile: work.file("c.json"), atomically: true, encoding: .utf8)
        #expect(digest(inputs, shard: 0).sha256 != first.sha256, "one byte more")
    }
}
