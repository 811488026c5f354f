import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// K/N, the stable hash (pinned: shards built at different times must agree) and which payloads
/// fetch an image.
@Suite struct ShardRuleTests {
    @Test(arguments: [("0/1", 0, 1), ("3/4", 3, 4), ("0/16", 0, 16)])
    func aShardIsKOfN(text: String, index: Int, count: Int) {
        #expect(Shard(text) == Shard(index: index, count: count))
        #expect(Shard(text)?.description == text)
    }

    @Test(arguments: ["4/4", "-1/3", "1/0", "a/b", "1", "1/2/3", "", "/", " 1/2", "1/2 ", "+1/2", "1e1/20", "١/٢", "1234567890/1234567891"])
    func anythingElseIsNoShard(text: String) {
        #expect(Shard(text) == nil)
    }

    /// Values computed independently (Python, the same FNV-1a and finaliser): a change of the function
    /// would split a campaign differently in shards built before and after it.
    @Test(arguments: [
        ("", 0xefd0_1f60_ba99_2926 as UInt64),
        ("a", 0x82a2_a958_a9be_ce5b),
        ("https://cdn.example.com/banner.png", 0x4c5b_f534_882a_472f),
        ("https://cdn.example.com/banner.png\u{0}--budget=20000", 0x424a_da0e_b32f_3001),
    ])
    func theStableHashIsPinned(text: String, hash: UInt64) {
        #expect(StableHash.hash(text) == hash)
    }

    @Test func positionShardingIsPositionModuloN() {
        for position in 0..<20 {
            #expect(ShardRule.position.shard(position: position, imageKey: "anything", count: 3) == position % 3)
            #expect(ShardRule.image.shard(position: position, imageKey: nil, count: 3) == position % 3, "no image: by position")
        }
    }

    @Test func imageShardingSendsEveryPayloadOfAnImageToOneShardAndSpreadsImages() throws {
        var shards: [Int: Int] = [:]
        for image in 0..<400 {
            let url = try ImageURL(validating: "https://cdn.example.com/i/\(image).png")
            let key = ShardRule.imageKey(url: url, downloadOptions: "--budget=20000")
            let shard = ShardRule.image.shard(position: image, imageKey: key, count: 4)
            for position in [1, 2, 99, 12345] {
                #expect(ShardRule.image.shard(position: position, imageKey: key, count: 4) == shard)
            }
            shards[shard, default: 0] += 1
        }
        #expect(shards.keys.sorted() == [0, 1, 2, 3])
        #expect(shards.values.allSatisfy { $0 > 60 }, "about 100 images each: \(shards)")
    }

    @Test(
        arguments: [
            (#"{"aps":{"alert":"A","mutable-content":1},"carillon":{"image":"https://x.test/a.png"}}"#, "https://x.test/a.png"),
            (#"{"aps":{"alert":"A","mutable-content":1},"carillon":"{\"image\":\"https://x.test/b.png\"}"}"#, "https://x.test/b.png"),
            (#"{"aps":{"alert":"A"},"carillon":{"image":"https://x.test/a.png"}}"#, nil),
            (#"{"aps":{"mutable-content":1},"carillon":{"image":"https://x.test/a.png"}}"#, nil),
            (#"{"aps":{"alert":"A","mutable-content":1},"carillon":{"image":"http://x.test/a.png"}}"#, nil),
            (#"{"aps":{"alert":"A","mutable-content":1},"carillon":{}}"#, nil),
            (#"{"aps":{"alert":"A","mutable-content":1}}"#, nil),
        ] as [(String, String?)])
    func theFetchedImageIsARoutedPayloadsValidURL(json: String, image: String?) throws {
        let payload = try Payload(bytes: Array(json.utf8))
        #expect(ShardRule.fetchedImage(payload)?.absoluteString == image)
    }
}
