import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// One shard's bundle written and read back, from the file and from memory alike; every cut of a small
/// bundle refused, at every byte; damage, disorder and foreign files refused with the line at fault.
@Suite struct ResultBundleTests {
    static let header = ResultBundle.Header(
        tool: "0.1.0", shard: Shard(index: 1, count: 3)!, rule: .image, runners: ["GitLab"],
        options: [.init("--budget", "20"), .init("--ca-file", "sha256:ab")], appName: "Carillon",
        started: Timestamp(millisecondsSinceEpoch: 1_796_000_000_000))
    static let input = ResultBundle.Input(
        payloads: 9, sha256: String(repeating: "c", count: 64), whole: true, namesSHA256: String(repeating: "d", count: 64),
        firstName: "c.jsonl:1")

    /// A line as the tool prints one.
    static func line(_ payload: String) -> [UInt8] { Array(#"{"payload":"\#(payload)","routed":true,"warnings":[]}"#.utf8) }

    /// A bundle of three records (positions 1, 4, 7), one attachment and a summary; its bytes.
    static func writeSmall(in work: TemporaryDirectory, name: String = "b.bundle") throws -> (path: String, bytes: [UInt8]) {
        let path = work.file(name)
        let writer = try ResultBundleWriter(path: path, header: header)
        let image = writer.addAttachment(["type": "png", "base64": "iVBORw0K"])
        writer.add(.init(position: 1, data: ["reason": "attached", "attachment": .number(String(image))], line: line("c.jsonl:2")))
        writer.add(.init(position: 4, data: ["reason": "http-status", "detail": "é \u{2028} \"q\""], line: line("c.jsonl:5")))
        writer.add(.init(position: 7, data: ["reason": "no-image"], line: line("c.jsonl:8")))
        #expect(!FileManager.default.fileExists(atPath: path), "nothing at the name before the end")
        try writer.finish(summary: ["images": .array([])], input: input, finished: Timestamp(millisecondsSinceEpoch: 1_796_000_001_000))
        return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func aBundleReadsBackAsItWasWrittenFromMemoryAndFromItsFile() throws {
        let work = TemporaryDirectory("bundle")
        defer { work.remove() }
        let (path, bytes) = try Self.writeSmall(in: work)
        let contents = try ResultBundle.Contents(bytes: bytes)
        #expect(contents.header == Self.header)
        #expect(contents.end.input == Self.input && contents.end.records == 3 && contents.end.attachments == 1)
        #expect(contents.records.map(\.position) == [1, 4, 7])
        #expect(contents.records[1].data["detail"] == .string("é \u{2028} \"q\""))
        #expect(contents.records.map(\.line) == ["c.jsonl:2", "c.jsonl:5", "c.jsonl:8"].map(Self.line))
        #expect(contents.attachments == [["type": "png", "base64": "iVBORw0K"]])
        #expect(contents.summary == ["images": .array([])])

        let file = try ResultBundleFile.open(path)
        #expect(file.header == Self.header && file.end == contents.end && file.positions == [1, 4, 7] && file.summary == contents.summary)
        let records = try file.records()
        var read: [ResultBundle.Record] = []
        while let record = try records.next() { read.append(record) }
        #expect(read == contents.records)
        #expect(try file.attachment(0) == contents.attachments[0])
        #expect(throws: ResultBundleError.self) { try file.attachment(1) }
        // Only the bundle is left: the temporary file was renamed.
        #expect(work.contents() == ["b.bundle"])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"format":"carillon-nse-bundle","version":2,"tool":"0.1.0","shard":"1/3","rule":"image""#))
        #expect(text.split(separator: "\n").last?.hasPrefix(#"{"end":"carillon-nse-bundle","records":3,"attachments":1,"#) == true)
    }

    /// The table over every cut: each prefix of a small bundle, from 0 bytes to all but its last, is refused.
    @Test func aBundleCutShortAtAnyByteIsRefused() throws {
        let work = TemporaryDirectory("bundle-cuts")
        defer { work.remove() }
        let (_, bytes) = try Self.writeSmall(in: work)
        #expect(bytes.count > 600)
        var messages: Set<String> = []
        for length in 0..<bytes.count {
            do {
                _ = try ResultBundle.Contents(bytes: Array(bytes[..<length]))
                Issue.record("a bundle cut to \(length) of \(bytes.count) bytes was read")
            } catch {
                messages.insert(String(error.message.prefix(while: { $0 != ":" })))
            }
        }
        #expect(messages == ["empty", "cut short"], "\(messages)")
        // The same through the file reader, for a sample of cuts (the reader is the same code).
        for length in [0, 1, 100, bytes.count / 2, bytes.count - 2, bytes.count - 1] {
            let path = work.file("cut-\(length)")
            try Data(bytes[..<length]).write(to: URL(fileURLWithPath: path))
            #expect(throws: ResultBundleError.self, "cut at \(length)") { try ResultBundleFile.open(path) }
        }
    }

    @Test func aChangedByteAnywhereBeforeTheEndLineIsRefusedAsDamaged() throws {
        let work = TemporaryDirectory("bundle-damage")
        defer { work.remove() }
        let (_, bytes) = try Self.writeSmall(in: work)
        let endStart = bytes[..<(bytes.count - 1)].lastIndex(of: 0x0A)! + 1
        for offset in stride(from: 0, to: endStart, by: 7) where bytes[offset] != 0x0A {
            var damaged = bytes
            damaged[offset] = bytes[offset] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            #expect(throws: ResultBundleError.self, "byte \(offset)") { try ResultBundle.Contents(bytes: damaged) }
        }
    }

    /// Well-formed lines in the wrong place, or lines of no bundle, named with their line number.
    @Test(arguments: [
        ("not json", "not a carillon-nse result bundle", 1),
        // Version 1 kept no request, source or image digest: a merge of it could not be what one run writes.
        (#"{"format":"carillon-nse-bundle","version":1}"#, "bundle version 1; this carillon-nse reads version 2", 1),
        (#"{"format":"other"}"#, "not a carillon-nse result bundle", 1),
    ])
    func aFileThatIsNoBundleSaysSo(firstLine: String, message: String, line: Int) throws {
        let bytes = Array((firstLine + "\n" + #"{"end":"carillon-nse-bundle"}"# + "\n").utf8)
        #expect(throws: ResultBundleError(message, line: line)) { try ResultBundle.Contents(bytes: bytes) }
    }

    @Test func recordsOutOfOrderOrWithoutTheirLinesAreRefused() throws {
        let work = TemporaryDirectory("bundle-order")
        defer { work.remove() }
        let (_, bytes) = try Self.writeSmall(in: work)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        // Lines: 1 header, 2 attachment, 3-4 position 1 and its line, 5-6 position 4, 7-8 position 7.
        let swapped =
            Array(([lines[0], lines[1], lines[4], lines[5], lines[2], lines[3]] + lines[6...]).joined(separator: "\n").utf8) + [0x0A]
        #expect(throws: ResultBundleError("a record at position 1, not after position 4", line: 5)) {
            try ResultBundle.Contents(bytes: swapped)
        }
        var dropped = lines
        dropped.remove(at: 4)  // position 4's record gone: its line stands alone
        #expect(throws: ResultBundleError.self) { try ResultBundle.Contents(bytes: Array((dropped.joined(separator: "\n") + "\n").utf8)) }
    }
}
