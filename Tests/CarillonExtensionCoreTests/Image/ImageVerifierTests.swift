import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What holds for every format: intact fixtures, cut files, foreign formats, empty and unreadable files,
/// files at the size cap, robustness (the CRC is `CRC32Tests`). Each format's own rules are tables in `PNGStreamTests`,
/// `JPEGStreamTests` and `GIFStreamTests`.
@Suite struct ImageVerifierTests {
    // MARK: Fixtures

    struct Fixture: Sendable, CustomTestStringConvertible {
        var name: String
        var type: ImageType
        /// The header's size and frame count (`file(1)`; TestAssets/Images/README.md).
        var width: Int
        var height: Int
        var frames = 1
        /// The shortest prefix that shows an image (cut after its image data began), with a warning.
        var firstShown: @Sendable ([UInt8]) -> Int
        var testDescription: String { name }
    }

    static let images: [Fixture] = [
        Fixture(name: "sample.jpg", type: .jpeg, width: 16, height: 16) { bytes in
            let sos = ImageFixtures.jpegSegment(0xDA, in: bytes)
            return sos.offset + 2 + sos.length
        },
        Fixture(name: "progressive.jpg", type: .jpeg, width: 16, height: 16) { bytes in
            let sos = ImageFixtures.jpegSegment(0xDA, in: bytes)
            return sos.offset + 2 + sos.length
        },
        Fixture(name: "sample.png", type: .png, width: 16, height: 12) { bytes in
            let idat = ImageFixtures.pngChunk("IDAT", in: bytes)
            return idat.offset + 12 + idat.length
        },
        Fixture(name: "paletted-interlaced.png", type: .png, width: 16, height: 12) { bytes in
            let idat = ImageFixtures.pngChunk("IDAT", in: bytes)
            return idat.offset + 12 + idat.length
        },
        Fixture(name: "static.gif", type: .gif, width: 16, height: 12) { bytes in bytes.count - 1 },
        Fixture(name: "animated.gif", type: .gif, width: 16, height: 12, frames: 3) { bytes in firstFrameEnd(bytes) },
    ]

    @Test(arguments: images)
    func validImageVerifiesFromFileAndBytes(_ fixture: Fixture) throws {
        let bytes = ImageFixtures.load(fixture.name)
        let clean = VerifiedImage(type: fixture.type, width: fixture.width, height: fixture.height, frames: fixture.frames)
        #expect(try ImageVerifier.verify(fileAt: ImageFixtures.path(fixture.name)) == clean)
        #expect(try ImageVerifier.verify(bytes: bytes) == clean)
        ImageFixtures.expectStreamAgrees(bytes, .success(clean))
    }

    /// A cut file is refused until its image data has begun (PNG: the first IDAT whole; JPEG: the first
    /// scan's header; GIF: the first frame whole), then shows with a warning — except a JPEG cut inside a
    /// header segment after its first scan.
    @Test(arguments: images)
    func everyPrefixIsRefusedOrWarned(_ fixture: Fixture) throws {
        let bytes = ImageFixtures.load(fixture.name)
        let shown = fixture.firstShown(bytes)
        for length in 0..<bytes.count {
            switch ImageFixtures.decision(Array(bytes[..<length])) {
            case .success(let image):
                #expect(length >= shown, "prefix of \(length) bytes shows, but the image data begins at \(shown)")
                #expect(image.type == fixture.type && !image.warnings.isEmpty, "prefix of \(length) bytes: \(image)")
                // The header's size; the frames whose descriptors were read (all of them, once the file is
                // cut in the last).
                #expect(image.width == fixture.width && image.height == fixture.height, "prefix of \(length) bytes: \(image)")
                #expect((1...fixture.frames).contains(image.frames), "prefix of \(length) bytes: \(image)")
            case .failure(let outcome):
                // Past the first scan, a JPEG cut inside a header segment is refused: libjpeg misreads it.
                #expect(
                    length < shown || outcome.detail.hasPrefix("JPEG truncated in segment"),
                    "prefix of \(length) bytes refused: \(outcome.detail)")
                #expect(outcome.reason == (length == 0 ? .emptyBody : .unsupportedType), "prefix of \(length) bytes")
            }
        }
        // The file reader decides the same prefixes in the same words.
        try ImageFixtures.withTemporaryDirectory { directory in
            for length in stride(from: 1, to: bytes.count, by: 29) {
                let prefix = Array(bytes[..<length])
                let path = try ImageFixtures.write(prefix, in: directory, name: "prefix-\(length)")
                let fromFile = Result { () throws(Outcome) in try ImageVerifier.verify(fileAt: path) }
                #expect(fromFile == ImageFixtures.decision(prefix), "prefix of \(length) bytes")
            }
        }
    }

    /// Where animated.gif's first frame (its data sub-blocks and their terminator) ends.
    static func firstFrameEnd(_ bytes: [UInt8]) -> Int {
        var offset = 13 + 48
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                offset += 2
            case 0x2C:
                offset += 10 + (bytes[offset + 9] & 0x80 != 0 ? 3 << (Int(bytes[offset + 9] & 7) + 1) : 0) + 1
                while bytes[offset] != 0 { offset += 1 + Int(bytes[offset]) }
                return offset + 1
            default:
                return bytes.count
            }
            while bytes[offset] != 0 { offset += 1 + Int(bytes[offset]) }
            offset += 1
        }
        return bytes.count
    }

    @Test func truncationDetailsNameWhereTheFileEnds() throws {
        let png = ImageFixtures.load("sample.png")
        let idat = ImageFixtures.pngChunk("IDAT", in: png)
        #expect(ImageFixtures.refusal(Array(png[..<(idat.offset + 20)]))?.detail == "PNG truncated in chunk IDAT at offset 69")
        let jpeg = ImageFixtures.load("sample.jpg")
        let cutJPEG = try ImageFixtures.decision(Array(jpeg[..<(jpeg.count - 40)])).get()
        #expect(cutJPEG.warnings == ["JPEG has no EOI marker: the data ends inside scan 1; only part of the image may show"])
        let gif = ImageFixtures.load("animated.gif")
        let cutGIF = try ImageFixtures.decision(Array(gif[..<(gif.count - 30)])).get()
        #expect(cutGIF.warnings == ["GIF truncated in the data of image 3; its first 2 images show"])
        #expect(cutGIF.frames == 3, "the third descriptor was read")
    }

    // MARK: Other formats

    struct Foreign: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var detail: String
    }

    static let foreignFiles: [(String, String)] = [
        ("sample.webp", "WebP image"),
        ("sample.heic", "HEIC/HEIF image"),
        ("sample.svg", "SVG document"),
        ("notfound.html", "HTML document"),
    ]

    @Test(arguments: foreignFiles)
    func foreignFileIsNamed(_ name: String, _ detail: String) {
        #expect(ImageFixtures.refusal(fileAt: ImageFixtures.path(name)) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + detail))
        #expect(ImageFixtures.refusal(ImageFixtures.load(name)) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + detail))
    }

    static let foreignBytes: [Foreign] = [
        Foreign(testDescription: "gzip", bytes: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0], detail: "gzip data"),
        Foreign(testDescription: "BMP", bytes: Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], detail: "BMP image"),
        Foreign(testDescription: "TIFF", bytes: [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], detail: "TIFF image"),
        Foreign(testDescription: "PDF", bytes: Array("%PDF-1.7\n".utf8), detail: "PDF document"),
        Foreign(
            testDescription: "AVIF",
            bytes: [0, 0, 0, 0x1C] + Array("ftypavif\0\0\0\0avifmif1miaf".utf8), detail: "AVIF image"),
        Foreign(
            testDescription: "ISO media of an unknown brand", bytes: [0, 0, 0, 0x18] + Array("ftypabcd\0\0\0\0abcdiso2".utf8),
            detail: "ISO media file (brand 'abcd')"),
        Foreign(
            testDescription: "HTML with BOM and capitals",
            bytes: [0xEF, 0xBB, 0xBF] + Array("\n  <HTML><body>oops</body></HTML>".utf8), detail: "HTML document"),
        Foreign(
            testDescription: "HTML after a comment",
            bytes: Array("<!-- cached --><html><body></body></html>".utf8), detail: "HTML document"),
        Foreign(
            testDescription: "SVG without XML declaration", bytes: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
            detail: "SVG document"),
        Foreign(
            testDescription: "XML error body",
            bytes: Array("<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code></Error>".utf8), detail: "XML document"),
        Foreign(testDescription: "JSON", bytes: Array("{\"error\":\"not found\"}\n".utf8), detail: "text"),
        Foreign(testDescription: "UTF-8 text", bytes: Array("Grüße, wörld".utf8), detail: "text"),
        Foreign(
            testDescription: "binary", bytes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            detail: "unrecognised data (first bytes: 00 01 02 03 04 05 06 07 ...)"),
        Foreign(testDescription: "short binary", bytes: [0xFF], detail: "unrecognised data (first bytes: FF)"),
        Foreign(testDescription: "PNG signature cut", bytes: [0x89, 0x50, 0x4E, 0x47], detail: "PNG truncated in its signature"),
        Foreign(testDescription: "GIF header cut", bytes: Array("GIF8".utf8), detail: "GIF truncated in its header"),
    ]

    @Test(arguments: foreignBytes)
    func foreignBytesAreNamed(_ foreign: Foreign) {
        #expect(ImageFixtures.refusal(foreign.bytes) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + foreign.detail))
    }

    // MARK: Empty and unreadable

    @Test func emptyInputIsAnEmptyBody() throws {
        #expect(ImageFixtures.refusal([])?.reason == .emptyBody)
        try ImageFixtures.withTemporaryDirectory { directory in
            let path = try ImageFixtures.write([], in: directory, name: "empty")
            #expect(ImageFixtures.refusal(fileAt: path)?.reason == .emptyBody)
        }
    }

    @Test func unreadableFileIsAStorageFailure() throws {
        let missing = "/nonexistent-carillon-\(FileSystem.uniqueToken())/image.jpg"
        #expect(ImageFixtures.refusal(fileAt: missing) == Outcome(.storage, "open \(missing): No such file or directory"))
        try ImageFixtures.withTemporaryDirectory { directory in
            #expect(ImageFixtures.refusal(fileAt: directory) == Outcome(.storage, "read \(directory): Is a directory"))
        }
    }

    // MARK: Files at the size cap

    @Test func tenMebibyteJPEGVerifies() throws {
        let jpeg = ImageFixtures.load("sample.jpg")
        let comment: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x2E, count: 0xFFFF - 2)
        var big: [UInt8] = [0xFF, 0xD8]
        big.reserveCapacity(ImageFixtures.cap)
        while big.count + comment.count + jpeg.count - 2 <= ImageFixtures.cap { big += comment }
        big += jpeg[2...]
        #expect(big.count > ImageFixtures.cap - comment.count)
        let clean = VerifiedImage(type: .jpeg, width: 16, height: 16, frames: 1)
        let cutShort = VerifiedImage(
            type: .jpeg, width: 16, height: 16, frames: 1,
            warnings: ["JPEG has no EOI marker: the data ends inside scan 1; only part of the image may show"])
        try ImageFixtures.withTemporaryDirectory { directory in
            let path = try ImageFixtures.write(big, in: directory, name: "big.jpg")
            #expect(try ImageVerifier.verify(fileAt: path) == clean)
            let cut = try ImageFixtures.write(Array(big.dropLast(2)), in: directory, name: "cut.jpg")
            #expect(try ImageVerifier.verify(fileAt: cut) == cutShort)
            let headers = try ImageFixtures.write(Array(big[..<(big.count - jpeg.count + 100)]), in: directory, name: "headers.jpg")
            #expect(ImageFixtures.refusal(fileAt: headers)?.detail == "JPEG truncated in segment DQT")
        }
        #expect(try ImageVerifier.verify(bytes: big) == clean)
        #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024) == .success(clean))
        #expect(ImageStreamVerifier.decide(Array(big.dropLast(2)), pieceSize: 100 * 1024) == .success(cutShort))
    }

    @Test func tenMebibytePNGVerifiesAndEveryCRCIsChecked() throws {
        let png = ImageFixtures.load("sample.png")
        var payload = [UInt8](repeating: 0, count: ImageFixtures.cap - png.count - 12)
        for index in stride(from: 0, to: payload.count, by: 4099) { payload[index] = UInt8(truncatingIfNeeded: index) }
        var big = Array(png[..<33]) + ImageFixtures.pngChunk(type: "caRn", data: payload) + Array(png[33...])
        #expect(big.count == ImageFixtures.cap)
        let clean = VerifiedImage(type: .png, width: 16, height: 12, frames: 1)
        #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024) == .success(clean))
        try ImageFixtures.withTemporaryDirectory { directory in
            let path = try ImageFixtures.write(big, in: directory, name: "big.png")
            #expect(try ImageVerifier.verify(fileAt: path) == clean)
            // Deep inside the chunk, across many 64 KiB windows: an ancillary chunk, skipped with a warning.
            big[33 + 8 + 5_000_000] ^= 0x10
            let warned = VerifiedImage(
                type: .png, width: 16, height: 12, frames: 1,
                warnings: ["PNG caRn CRC mismatch (chunk at offset 33); decoders skip the chunk"])
            #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024) == .success(warned))
            let bad = try ImageFixtures.write(big, in: directory, name: "bad.png")
            #expect(try ImageVerifier.verify(fileAt: bad) == warned)
            // The same damage in a critical chunk is refused: its name made critical (and its CRC redone).
            var critical = big
            critical[33 + 4] = UInt8(ascii: "C")
            let body = Array(critical[(33 + 4)..<(33 + 8 + payload.count)])
            critical.replaceSubrange(
                (33 + 8 + payload.count)..<(33 + 12 + payload.count), with: ImageFixtures.bigEndian(CRC32.checksum(body)))
            #expect(
                ImageStreamVerifier.decide(critical, pieceSize: 16 * 1024)
                    == .failure(Outcome(.unsupportedType, "PNG has an unknown critical chunk CaRn at offset 33")))
        }
    }

    // MARK: Robustness

    /// Random byte changes, insertions and cuts of every valid fixture: a refusal or the type, never a crash or a hang.
    @Test(arguments: images)
    func mutationsNeverCrash(_ fixture: Fixture) {
        let original = ImageFixtures.load(fixture.name)
        var random = ImageFixtures.SplitMix64(seed: 0xCA51_1100 &+ UInt64(original.count))
        for _ in 0..<1500 {
            var bytes = original
            for _ in 0...random.next(below: 4) {
                let index = random.next(below: bytes.count)
                switch random.next(below: 4) {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes[index] = [0x00, 0xFF, 0x80, 0x7F][random.next(below: 4)]
                case 2: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
                default: bytes.remove(at: index)
                }
                if bytes.isEmpty { bytes = [0] }
            }
            let decision = Result(catching: { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes) })
            switch decision {
            case .success(let image): #expect(image.type == fixture.type)
            case .failure(let outcome): #expect(outcome.reason == .unsupportedType)
            }
            let pieceSize = 1 + random.next(below: 300)
            #expect(ImageStreamVerifier.decide(bytes, pieceSize: pieceSize) == decision, "in pieces of \(pieceSize)")
        }
    }
}
