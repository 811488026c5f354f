import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The image fixtures of `TestAssets/Images/` and what the image tests build from them: loading, byte
/// surgery on chunks and segments, and the verdict checked three ways (in memory, streamed in pieces,
/// from a file).
enum ImageFixtures {

    static let cap = 10 * 1024 * 1024

    /// static.gif: 13 header bytes and a 16-colour global table, then its one image.
    static let staticGIFImage = 13 + 48
    static let staticGIFCodeSize = staticGIFImage + 10

    static let imagesDirectory = Paths.testAssets("Images")

    static func path(_ name: String) -> String { FileSystem.join(imagesDirectory, name) }

    static func load(_ name: String) -> [UInt8] {
        do { return try FileSystem.readFile(path(name)) } catch {
            Issue.record("cannot read fixture: \(error)")
            return []
        }
    }

    /// The in-memory verifier's decision, after checking that the stream verifier (what downloads use)
    /// decides the same, in the same words, fed in pieces of several sizes.
    static func decision(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Result<VerifiedImage, Outcome> {
        let decision = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes) }
        expectStreamAgrees(bytes, decision, sourceLocation: sourceLocation)
        return decision
    }

    /// The in-memory verifier's refusal (nil when it accepts), checked against the stream verifier.
    static func refusal(_ bytes: [UInt8]) -> Outcome? {
        if case .failure(let outcome) = decision(bytes) { return outcome }
        return nil
    }

    /// The file reader's decision on `bytes` written to a file.
    static func decision(ofFileWith bytes: [UInt8]) throws -> Result<VerifiedImage, Outcome> {
        var result: Result<VerifiedImage, Outcome> = .failure(Outcome(.storage, "not run"))
        try withTemporaryDirectory { directory in
            let path = try write(bytes, in: directory, name: "image")
            result = Result { () throws(Outcome) in try ImageVerifier.verify(fileAt: path) }
        }
        return result
    }

    /// Fed in pieces of 1, 2, 3, 64 and 16 KiB bytes, and whole, the stream verifier decides `decision`, one
    /// split at a time and all the splits at once (``ImageStreamVerifier/decide(_:pieceSizes:)``).
    static func expectStreamAgrees(
        _ bytes: [UInt8], _ decision: Result<VerifiedImage, Outcome>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let sizes = [1, 2, 3, 64, 16 * 1024, bytes.count].filter { $0 < 4 || $0 <= max(bytes.count, 1) }
        for pieceSize in sizes {
            let streamed = ImageStreamVerifier.decide(bytes, pieceSize: pieceSize)
            #expect(streamed == decision, "in pieces of \(pieceSize)", sourceLocation: sourceLocation)
        }
        let together = ImageStreamVerifier.decide(bytes, pieceSizes: sizes)
        #expect(together == Array(repeating: decision, count: sizes.count), "all splits at once", sourceLocation: sourceLocation)
    }

    static func refusal(fileAt path: String) -> Outcome? {
        do { _ = try ImageVerifier.verify(fileAt: path) } catch { return error }
        return nil
    }

    static func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        let directory = TemporaryDirectory("imgver")
        defer { directory.remove() }
        try body(directory.path)
    }

    static func write(_ bytes: [UInt8], in directory: String, name: String) throws -> String {
        let path = FileSystem.join(directory, name)
        let descriptor = try FileSystem.createExclusive(path)
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(FileSystemError) in try FileSystem.writeAll(descriptor, buffer, path: path) }
        }.get()
        return path
    }

    static func pngChunk(type: String, data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(body))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Where a chunk of a well-formed PNG starts and its data length.
    static func pngChunk(_ type: String, in bytes: [UInt8]) -> (offset: Int, length: Int) {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if Array(bytes[(offset + 4)..<(offset + 8)]) == Array(type.utf8) { return (offset, length) }
            offset += 12 + length
        }
        Issue.record("no \(type) chunk")
        return (0, 0)
    }

    static func removingPNGChunk(_ type: String, from bytes: [UInt8]) -> [UInt8] {
        let chunk = pngChunk(type, in: bytes)
        return Array(bytes[..<chunk.offset]) + Array(bytes[(chunk.offset + 12 + chunk.length)...])
    }

    /// Changes IHDR's 13 data bytes and recomputes its CRC, so only the changed field is wrong.
    static func rewritingIHDR(_ bytes: [UInt8], _ change: (inout [UInt8]) -> Void) -> [UInt8] {
        var data = Array(bytes[16..<29])
        change(&data)
        return Array(bytes[..<8]) + pngChunk(type: "IHDR", data: data) + Array(bytes[33...])
    }

    /// Where a segment of a well-formed JPEG starts (at its FF) and its length field, walking up to SOS.
    static func jpegSegment(_ marker: UInt8, in bytes: [UInt8]) -> (offset: Int, length: Int) {
        var offset = 2
        while offset + 4 <= bytes.count && bytes[offset] == 0xFF {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == marker { return (offset, length) }
            if bytes[offset + 1] == 0xDA { break }
            offset += 2 + length
        }
        Issue.record("no segment FF \(marker)")
        return (0, 0)
    }

    /// A well-formed JPEG without its segments of `marker` before the first SOS.
    static func removingJPEGSegments(_ marker: UInt8, from bytes: [UInt8]) -> [UInt8] {
        var kept = Array(bytes[..<2])
        var offset = 2
        while offset + 4 <= bytes.count && bytes[offset] == 0xFF && bytes[offset + 1] != 0xDA {
            let end = offset + 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
            if bytes[offset + 1] != marker { kept += bytes[offset..<end] }
            offset = end
        }
        return kept + bytes[offset...]
    }

    /// A small deterministic generator (SplitMix64), so the mutation test is the same on every run.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func next(below bound: Int) -> Int {
            Int(next() % UInt64(bound))
        }
    }
}

/// One changed fixture and the verdict it must get: refused naming the fault, accepted with a warning
/// naming the damage, or accepted clean. The tables of `PNGStreamTests`, `JPEGStreamTests` and
/// `GIFStreamTests` are made of these.
struct ImageCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable {
        /// `unsupported-type`, the detail containing these words.
        case refused(String)
        /// Accepted as the fixture's type, a warning containing these words.
        case warned(String)
        /// Accepted as the fixture's type, without a warning.
        case clean
    }

    var testDescription: String
    var fixture: String
    var expected: Expected
    var change: @Sendable ([UInt8]) -> [UInt8]

    init(_ description: String, _ fixture: String, _ expected: Expected, change: @escaping @Sendable ([UInt8]) -> [UInt8]) {
        testDescription = description
        self.fixture = fixture
        self.expected = expected
        self.change = change
    }

    /// The fixture's type, from its name.
    var type: ImageType {
        fixture.hasSuffix(".png") ? .png : fixture.hasSuffix(".gif") ? .gif : .jpeg
    }

    /// Checks the verdict in memory, streamed in pieces, and from a file. With CARILLON_IMAGE_CASES set to
    /// a directory, the changed file is also written there, so that the reference decoders can be asked
    /// about the whole table (`FuzzImageDecoders -runs=0 DIR`; see TestAssets/Fuzz/README.md).
    func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bytes = change(ImageFixtures.load(fixture))
        if let directory = getenv("CARILLON_IMAGE_CASES").map({ String(cString: $0) }) {
            let name = testDescription.map { $0.isLetter || $0.isNumber ? $0 : "-" }
            try? FileSystem.removeFile(FileSystem.join(directory, String(name) + "." + type.fileExtension))
            _ = try ImageFixtures.write(bytes, in: directory, name: String(name) + "." + type.fileExtension)
        }
        let decision = ImageFixtures.decision(bytes, sourceLocation: sourceLocation)
        #expect(try ImageFixtures.decision(ofFileWith: bytes) == decision, sourceLocation: sourceLocation)
        switch (expected, decision) {
        case (.refused(let words), .failure(let outcome)):
            #expect(outcome.reason == .unsupportedType, sourceLocation: sourceLocation)
            #expect(outcome.detail.contains(words), "\(outcome.detail)", sourceLocation: sourceLocation)
        case (.warned(let words), .success(let image)):
            #expect(image.type == type, sourceLocation: sourceLocation)
            #expect(image.warnings.contains { $0.contains(words) }, "\(image.warnings)", sourceLocation: sourceLocation)
        case (.clean, .success(let image)):
            #expect(image.type == type, sourceLocation: sourceLocation)
            #expect(image.warnings.isEmpty, "\(image.warnings)", sourceLocation: sourceLocation)
        default:
            Issue.record("expected \(expected), decided \(decision)", sourceLocation: sourceLocation)
        }
    }
}
