#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import CarillonExtensionCore

@Suite struct ImageVerifierTests {
    // MARK: Fixtures

    struct Fixture: Sendable, CustomTestStringConvertible {
        var name: String
        var type: ImageType
        var testDescription: String { name }
    }

    static let images: [Fixture] = [
        Fixture(name: "sample.jpg", type: .jpeg),
        Fixture(name: "sample.png", type: .png),
        Fixture(name: "static.gif", type: .gif),
        Fixture(name: "animated.gif", type: .gif),
    ]

    @Test(arguments: images)
    func validImageVerifiesFromFileAndBytes(_ fixture: Fixture) throws {
        #expect(try ImageVerifier.verify(fileAt: Self.path(fixture.name)) == fixture.type)
        #expect(try ImageVerifier.verify(bytes: Self.load(fixture.name)) == fixture.type)
        Self.expectStreamAgrees(Self.load(fixture.name), .success(fixture.type))
    }

    @Test(arguments: images)
    func everyPrefixIsRefused(_ fixture: Fixture) throws {
        let bytes = Self.load(fixture.name)
        for length in 0 ..< bytes.count {
            let outcome = Self.refusal(Array(bytes[..<length]))
            #expect(outcome?.reason == (length == 0 ? .emptyBody : .unsupportedType), "prefix of \(length) bytes")
        }
        // The file reader refuses the same prefixes with the same words.
        try Self.withTemporaryDirectory { directory in
            for length in stride(from: 1, to: bytes.count, by: 29) {
                let prefix = Array(bytes[..<length])
                let path = try Self.write(prefix, in: directory, name: "prefix-\(length)")
                #expect(Self.refusal(fileAt: path) == Self.refusal(prefix), "prefix of \(length) bytes")
            }
        }
    }

    @Test func truncationDetailsNameWhereTheFileEnds() {
        let png = Self.load("sample.png")
        let idat = Self.pngChunk("IDAT", in: png)
        #expect(Self.refusal(Array(png[..<(idat.offset + 20)]))?.detail == "PNG truncated in chunk IDAT")
        let jpeg = Self.load("sample.jpg")
        #expect(Self.refusal(Array(jpeg[..<(jpeg.count - 40)]))?.detail.contains("EOI") == true)
        let gif = Self.load("animated.gif")
        #expect(Self.refusal(Array(gif[..<(gif.count - 30)]))?.detail.contains("GIF truncated in the data of image 3") == true)
    }

    // MARK: Corruptions

    struct Corruption: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var fixture: String
        /// Words the refusal's detail must contain.
        var detail: String
        var change: @Sendable ([UInt8]) -> [UInt8]
    }

    static let corruptions: [Corruption] = [
        // PNG
        Corruption(testDescription: "PNG IHDR CRC", fixture: "sample.png", detail: "PNG IHDR CRC mismatch") { bytes in
            var bytes = bytes
            bytes[8 + 8 + 13] ^= 0x01
            return bytes
        },
        Corruption(testDescription: "PNG IDAT CRC", fixture: "sample.png", detail: "PNG IDAT CRC mismatch") { bytes in
            var bytes = bytes
            bytes[pngChunk("IDAT", in: bytes).offset + 10] ^= 0x40
            return bytes
        },
        Corruption(testDescription: "PNG without IEND", fixture: "sample.png", detail: "no IEND") { bytes in
            Array(bytes.dropLast(12))
        },
        Corruption(testDescription: "PNG without IDAT", fixture: "sample.png", detail: "no IDAT") { bytes in
            removingPNGChunk("IDAT", from: bytes)
        },
        Corruption(testDescription: "PNG without IHDR", fixture: "sample.png", detail: "starts with chunk tEXt") { bytes in
            removingPNGChunk("IHDR", from: bytes)
        },
        Corruption(testDescription: "PNG zero width", fixture: "sample.png", detail: "PNG IHDR has zero width") { bytes in
            rewritingIHDR(bytes) { $0[0 ..< 4] = [0, 0, 0, 0] }
        },
        Corruption(testDescription: "PNG zero height", fixture: "sample.png", detail: "PNG IHDR has zero height") { bytes in
            rewritingIHDR(bytes) { $0[4 ..< 8] = [0, 0, 0, 0] }
        },
        Corruption(testDescription: "PNG width over 2^31-1", fixture: "sample.png", detail: "invalid size") { bytes in
            rewritingIHDR(bytes) { $0[0 ..< 4] = [0x80, 0, 0, 0] }
        },
        Corruption(testDescription: "PNG RGB at 4 bits", fixture: "sample.png", detail: "invalid bit depth 4 for colour type 2") { bytes in
            rewritingIHDR(bytes) { $0[8] = 4 }
        },
        Corruption(testDescription: "PNG colour type 5", fixture: "sample.png", detail: "invalid colour type 5") { bytes in
            rewritingIHDR(bytes) { $0[9] = 5 }
        },
        Corruption(testDescription: "PNG interlace 2", fixture: "sample.png", detail: "interlace method 2") { bytes in
            rewritingIHDR(bytes) { $0[12] = 2 }
        },
        Corruption(testDescription: "PNG palette without PLTE", fixture: "sample.png", detail: "no PLTE") { bytes in
            rewritingIHDR(bytes) { $0[9] = 3 }
        },
        Corruption(testDescription: "PNG huge chunk length", fixture: "sample.png", detail: "PNG chunk tEXt has an invalid length 4294967295") { bytes in
            var bytes = bytes
            let text = pngChunk("tEXt", in: bytes).offset
            bytes.replaceSubrange(text ..< text + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            return bytes
        },
        Corruption(testDescription: "PNG chunk past the end", fixture: "sample.png", detail: "PNG truncated in chunk tEXt") { bytes in
            var bytes = bytes
            let text = pngChunk("tEXt", in: bytes).offset
            bytes.replaceSubrange(text ..< text + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
            return bytes
        },
        Corruption(testDescription: "PNG chunk type not letters", fixture: "sample.png", detail: "invalid chunk type") { bytes in
            var bytes = bytes
            bytes[pngChunk("tEXt", in: bytes).offset + 5] = 0x31
            return bytes
        },
        Corruption(testDescription: "PNG IEND with data", fixture: "sample.png", detail: "PNG IEND has length 1") { bytes in
            Array(bytes.dropLast(12)) + pngChunk(type: "IEND", data: [0])
        },
        Corruption(testDescription: "PNG second IHDR", fixture: "sample.png", detail: "second IHDR") { bytes in
            let ihdr = Array(bytes[8 ..< 33])
            return Array(bytes[..<33]) + ihdr + Array(bytes[33...])
        },
        // JPEG
        Corruption(testDescription: "JPEG without EOI", fixture: "sample.jpg", detail: "JPEG has no EOI marker") { bytes in
            Array(bytes.dropLast(2))
        },
        Corruption(testDescription: "JPEG without SOF", fixture: "sample.jpg", detail: "JPEG has no SOF segment") { bytes in
            let sof = jpegSegment(0xC0, in: bytes)
            return Array(bytes[..<sof.offset]) + Array(bytes[(sof.offset + 2 + sof.length)...])
        },
        Corruption(testDescription: "JPEG without SOS", fixture: "sample.jpg", detail: "no SOS") { bytes in
            Array(bytes[..<jpegSegment(0xDA, in: bytes).offset])
        },
        Corruption(testDescription: "JPEG zero width", fixture: "sample.jpg", detail: "JPEG SOF0 has zero width") { bytes in
            var bytes = bytes
            let sof = jpegSegment(0xC0, in: bytes).offset
            bytes[sof + 7] = 0
            bytes[sof + 8] = 0
            return bytes
        },
        Corruption(testDescription: "JPEG zero components", fixture: "sample.jpg", detail: "0 components") { bytes in
            var bytes = bytes
            bytes[jpegSegment(0xC0, in: bytes).offset + 9] = 0
            return bytes
        },
        Corruption(testDescription: "JPEG segment length 1", fixture: "sample.jpg", detail: "JPEG segment DQT has an invalid length 1") { bytes in
            var bytes = bytes
            let dqt = jpegSegment(0xDB, in: bytes).offset
            bytes[dqt + 2] = 0
            bytes[dqt + 3] = 1
            return bytes
        },
        Corruption(testDescription: "JPEG segment past the end", fixture: "sample.jpg", detail: "JPEG truncated in segment COM") { bytes in
            var bytes = bytes
            let com = jpegSegment(0xFE, in: bytes).offset
            bytes[com + 2] = 0xFF
            bytes[com + 3] = 0xFF
            return bytes
        },
        Corruption(testDescription: "JPEG garbage between segments", fixture: "sample.jpg", detail: "JPEG has no marker at offset") { bytes in
            var bytes = bytes
            bytes.insert(0x42, at: jpegSegment(0xDB, in: bytes).offset)
            return bytes
        },
        Corruption(testDescription: "JPEG EOI before SOS", fixture: "sample.jpg", detail: "before any image data") { bytes in
            Array(bytes[..<jpegSegment(0xC0, in: bytes).offset]) + [0xFF, 0xD9]
        },
        Corruption(testDescription: "JPEG cut, with EOI bytes inside a COM", fixture: "sample.jpg", detail: "JPEG has no EOI marker") { bytes in
            var bytes = Array(bytes.dropLast(2))
            bytes.insert(contentsOf: [0xFF, 0xFE, 0x00, 0x04, 0xFF, 0xD9], at: jpegSegment(0xDB, in: bytes).offset)
            return bytes
        },
        Corruption(testDescription: "JPEG cut after a stuffed FF", fixture: "sample.jpg", detail: "JPEG has no EOI marker") { bytes in
            Array(bytes.dropLast(2)) + [0xFF]
        },
        Corruption(testDescription: "JPEG second SOI", fixture: "sample.jpg", detail: "second SOI") { bytes in
            [0xFF, 0xD8] + bytes
        },
        // GIF
        Corruption(testDescription: "GIF LZW code size 12", fixture: "static.gif", detail: "invalid LZW minimum code size 12") { bytes in
            var bytes = bytes
            bytes[staticGIFCodeSize] = 12
            return bytes
        },
        Corruption(testDescription: "GIF LZW code size 1", fixture: "static.gif", detail: "invalid LZW minimum code size 1") { bytes in
            var bytes = bytes
            bytes[staticGIFCodeSize] = 1
            return bytes
        },
        Corruption(testDescription: "GIF without trailer", fixture: "static.gif", detail: "GIF has no trailer") { bytes in
            Array(bytes.dropLast())
        },
        Corruption(testDescription: "animated GIF without trailer", fixture: "animated.gif", detail: "GIF has no trailer (truncated after 3 images)") { bytes in
            Array(bytes.dropLast())
        },
        Corruption(testDescription: "GIF zero screen width", fixture: "static.gif", detail: "zero width") { bytes in
            var bytes = bytes
            bytes[6] = 0
            bytes[7] = 0
            return bytes
        },
        Corruption(testDescription: "GIF image zero height", fixture: "static.gif", detail: "GIF image 1 has zero width or height") { bytes in
            var bytes = bytes
            bytes[staticGIFImage + 7] = 0
            bytes[staticGIFImage + 8] = 0
            return bytes
        },
        Corruption(testDescription: "GIF without image", fixture: "static.gif", detail: "GIF has no image") { bytes in
            Array(bytes[..<staticGIFImage]) + [0x3B]
        },
        Corruption(testDescription: "GIF image without data", fixture: "static.gif", detail: "GIF image 1 has no data") { bytes in
            Array(bytes[...staticGIFCodeSize]) + [0x00, 0x3B]
        },
        Corruption(testDescription: "GIF unknown block", fixture: "static.gif", detail: "unknown block 0x99") { bytes in
            Array(bytes.dropLast()) + [0x99]
        },
    ]

    @Test(arguments: corruptions)
    func corruptionIsRefusedWithItsName(_ corruption: Corruption) throws {
        let bytes = corruption.change(Self.load(corruption.fixture))
        let outcome = try #require(Self.refusal(bytes))
        #expect(outcome.reason == .unsupportedType)
        #expect(outcome.detail.contains(corruption.detail), "\(outcome.detail)")
        try Self.withTemporaryDirectory { directory in
            let path = try Self.write(bytes, in: directory, name: "corrupt")
            #expect(Self.refusal(fileAt: path) == outcome)
        }
    }

    // MARK: Variants that must pass

    struct Variant: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var fixture: String
        var change: @Sendable ([UInt8]) -> [UInt8]
    }

    static let variants: [Variant] = [
        Variant(testDescription: "PNG with zero padding after IEND", fixture: "sample.png") { $0 + [UInt8](repeating: 0, count: 100) },
        Variant(testDescription: "PNG with one IDAT per byte", fixture: "sample.png") { bytes in
            let idat = pngChunk("IDAT", in: bytes)
            let data = Array(bytes[(idat.offset + 8) ..< (idat.offset + 8 + idat.length)])
            return Array(bytes[..<idat.offset]) + data.flatMap { pngChunk(type: "IDAT", data: [$0]) }
                + Array(bytes[(idat.offset + 12 + idat.length)...])
        },
        Variant(testDescription: "JPEG with padding after EOI", fixture: "sample.jpg") { $0 + [UInt8](repeating: 0, count: 1000) },
        Variant(testDescription: "JPEG with a 1 MiB trailer after EOI (motion photo)", fixture: "sample.jpg") { bytes in
            var trailer = [UInt8](repeating: 0xFF, count: 1024 * 1024)
            trailer.replaceSubrange(0 ..< 12, with: [0, 0, 0, 0x18] + Array("ftypmp42".utf8))
            return bytes + trailer
        },
        Variant(testDescription: "JPEG with a second scan after a table", fixture: "sample.jpg") { bytes in
            let dht = jpegSegment(0xC4, in: bytes)
            let sos = jpegSegment(0xDA, in: bytes)
            return Array(bytes.dropLast(2)) + Array(bytes[dht.offset ..< (dht.offset + 2 + dht.length)])
                + Array(bytes[sos.offset...])
        },
        Variant(testDescription: "JPEG with stuffed bytes and restart markers in its data", fixture: "sample.jpg") { bytes in
            let sos = jpegSegment(0xDA, in: bytes)
            var bytes = bytes
            bytes.insert(contentsOf: [0xFF, 0xD0, 0x12, 0xFF, 0x00, 0xFF, 0xD7, 0xFF, 0x00], at: sos.offset + 2 + sos.length)
            return bytes
        },
        Variant(testDescription: "JPEG with fill bytes and a restart marker", fixture: "sample.jpg") { bytes in
            var bytes = bytes
            bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xFF, 0xD0], at: jpegSegment(0xDB, in: bytes).offset)
            return bytes
        },
        Variant(testDescription: "JPEG with zero height (DNL)", fixture: "sample.jpg") { bytes in
            var bytes = bytes
            let sof = jpegSegment(0xC0, in: bytes).offset
            bytes[sof + 5] = 0
            bytes[sof + 6] = 0
            return bytes
        },
        Variant(testDescription: "GIF with data after the trailer", fixture: "static.gif") { $0 + Array("junk".utf8) },
        Variant(testDescription: "GIF87a", fixture: "static.gif") { bytes in
            var bytes = bytes
            bytes[4] = UInt8(ascii: "7")
            return bytes
        },
    ]

    @Test(arguments: variants)
    func variantVerifies(_ variant: Variant) throws {
        let fixture = Self.load(variant.fixture)
        let bytes = variant.change(fixture)
        let expected = try ImageVerifier.verify(bytes: fixture)
        #expect(try ImageVerifier.verify(bytes: bytes) == expected)
        Self.expectStreamAgrees(bytes, .success(expected))
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
        #expect(Self.refusal(fileAt: Self.path(name)) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + detail))
        #expect(Self.refusal(Self.load(name)) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + detail))
    }

    static let foreignBytes: [Foreign] = [
        Foreign(testDescription: "gzip", bytes: [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0], detail: "gzip data"),
        Foreign(testDescription: "BMP", bytes: Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], detail: "BMP image"),
        Foreign(testDescription: "TIFF", bytes: [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], detail: "TIFF image"),
        Foreign(testDescription: "PDF", bytes: Array("%PDF-1.7\n".utf8), detail: "PDF document"),
        Foreign(testDescription: "AVIF",
                bytes: [0, 0, 0, 0x1C] + Array("ftypavif\0\0\0\0avifmif1miaf".utf8), detail: "AVIF image"),
        Foreign(testDescription: "MP4", bytes: [0, 0, 0, 0x18] + Array("ftypisom\0\0\0\0isomiso2".utf8),
                detail: "ISO media file (brand 'isom')"),
        Foreign(testDescription: "HTML with BOM and capitals",
                bytes: [0xEF, 0xBB, 0xBF] + Array("\n  <HTML><body>oops</body></HTML>".utf8), detail: "HTML document"),
        Foreign(testDescription: "HTML after a comment",
                bytes: Array("<!-- cached --><html><body></body></html>".utf8), detail: "HTML document"),
        Foreign(testDescription: "SVG without XML declaration", bytes: Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8),
                detail: "SVG document"),
        Foreign(testDescription: "XML error body",
                bytes: Array("<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code></Error>".utf8), detail: "XML document"),
        Foreign(testDescription: "JSON", bytes: Array("{\"error\":\"not found\"}\n".utf8), detail: "text"),
        Foreign(testDescription: "UTF-8 text", bytes: Array("Grüße, wörld".utf8), detail: "text"),
        Foreign(testDescription: "binary", bytes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
                detail: "unrecognised data (first bytes: 00 01 02 03 04 05 06 07 ...)"),
        Foreign(testDescription: "short binary", bytes: [0xFF], detail: "unrecognised data (first bytes: FF)"),
        Foreign(testDescription: "PNG signature cut", bytes: [0x89, 0x50, 0x4E, 0x47], detail: "PNG truncated in its signature"),
        Foreign(testDescription: "GIF header cut", bytes: Array("GIF8".utf8), detail: "GIF truncated in its header"),
    ]

    @Test(arguments: foreignBytes)
    func foreignBytesAreNamed(_ foreign: Foreign) {
        #expect(Self.refusal(foreign.bytes) == Outcome(.unsupportedType, "not a JPEG, PNG or GIF: " + foreign.detail))
    }

    // MARK: Empty and unreadable

    @Test func emptyInputIsAnEmptyBody() throws {
        #expect(Self.refusal([])?.reason == .emptyBody)
        try Self.withTemporaryDirectory { directory in
            let path = try Self.write([], in: directory, name: "empty")
            #expect(Self.refusal(fileAt: path)?.reason == .emptyBody)
        }
    }

    @Test func unreadableFileIsAStorageFailure() throws {
        let missing = "/nonexistent-carillon-\(FileSystem.uniqueToken())/image.jpg"
        #expect(Self.refusal(fileAt: missing) == Outcome(.storage, "open \(missing): No such file or directory"))
        try Self.withTemporaryDirectory { directory in
            #expect(Self.refusal(fileAt: directory) == Outcome(.storage, "read \(directory): Is a directory"))
        }
    }

    // MARK: Files at the size cap

    @Test func tenMebibyteJPEGVerifies() throws {
        let jpeg = Self.load("sample.jpg")
        let comment: [UInt8] = [0xFF, 0xFE, 0xFF, 0xFF] + [UInt8](repeating: 0x2E, count: 0xFFFF - 2)
        var big: [UInt8] = [0xFF, 0xD8]
        big.reserveCapacity(Self.cap)
        while big.count + comment.count + jpeg.count - 2 <= Self.cap { big += comment }
        big += jpeg[2...]
        #expect(big.count > Self.cap - comment.count)
        try Self.withTemporaryDirectory { directory in
            let path = try Self.write(big, in: directory, name: "big.jpg")
            #expect(try ImageVerifier.verify(fileAt: path) == .jpeg)
            let cut = try Self.write(Array(big.dropLast(2)), in: directory, name: "cut.jpg")
            #expect(Self.refusal(fileAt: cut)?.detail.contains("EOI") == true)
        }
        #expect(try ImageVerifier.verify(bytes: big) == .jpeg)
        #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024) == .success(.jpeg))
        let cut = Array(big.dropLast(2))
        let expected = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: cut) }
        #expect(ImageStreamVerifier.decide(cut, pieceSize: 100 * 1024) == expected)
        #expect((try? expected.get()) == nil)
    }

    @Test func tenMebibytePNGVerifiesAndEveryCRCIsChecked() throws {
        let png = Self.load("sample.png")
        var payload = [UInt8](repeating: 0, count: Self.cap - png.count - 12)
        for index in stride(from: 0, to: payload.count, by: 4099) { payload[index] = UInt8(truncatingIfNeeded: index) }
        var big = Array(png[..<33]) + Self.pngChunk(type: "caRn", data: payload) + Array(png[33...])
        #expect(big.count == Self.cap)
        #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024) == .success(.png))
        try Self.withTemporaryDirectory { directory in
            let path = try Self.write(big, in: directory, name: "big.png")
            #expect(try ImageVerifier.verify(fileAt: path) == .png)
            big[33 + 8 + 5_000_000] ^= 0x10  // deep inside the chunk, across many 64 KiB windows
            #expect(ImageStreamVerifier.decide(big, pieceSize: 16 * 1024)
                    == .failure(Outcome(.unsupportedType, "PNG caRn CRC mismatch (chunk at offset 33)")))
            let bad = try Self.write(big, in: directory, name: "bad.png")
            let outcome = Self.refusal(fileAt: bad)
            #expect(outcome == Outcome(.unsupportedType, "PNG caRn CRC mismatch (chunk at offset 33)"))
        }
    }

    @Test func crc32MatchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// zlib's CRC, as `CRC32` wraps it, is the bit-at-a-time definition's for every length, start
    /// alignment and split into pieces (the running CRC carried across them, as a PNG chunk's is).
    @Test func crc32MatchesTheBitwiseDefinition() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0 ..< 8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var random = SplitMix64(seed: 0xC4C3_2000)
        let bytes = (0 ..< 4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for _ in 0 ..< 300 {
            let start = random.next(below: 64)
            let end = start + random.next(below: bytes.count - start)
            let split = start + random.next(below: end - start + 1)
            let whole = bytes[start ..< end].withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
            let first = bytes[start ..< split].withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) }
            let pieces = bytes[split ..< end].withUnsafeBufferPointer { CRC32.update(first, $0) } ^ 0xFFFF_FFFF
            #expect(whole == bitwise(bytes[start ..< end]), "bytes \(start)..<\(end)")
            #expect(pieces == whole, "bytes \(start)..<\(end) split at \(split)")
        }
    }

    // MARK: Robustness

    /// Random byte changes, insertions and cuts of every valid fixture: a refusal or a type, never a crash or a hang.
    @Test(arguments: images)
    func mutationsNeverCrash(_ fixture: Fixture) {
        let original = Self.load(fixture.name)
        var random = SplitMix64(seed: 0xCA51_1100 &+ UInt64(original.count))
        for _ in 0 ..< 1500 {
            var bytes = original
            for _ in 0 ... random.next(below: 4) {
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
            case .success(let type): #expect(type == fixture.type)
            case .failure(let outcome): #expect(outcome.reason == .unsupportedType)
            }
            let pieceSize = 1 + random.next(below: 300)
            #expect(ImageStreamVerifier.decide(bytes, pieceSize: pieceSize) == decision, "in pieces of \(pieceSize)")
        }
    }

    // MARK: Helpers

    static let cap = 10 * 1024 * 1024

    /// static.gif: 13 header bytes and a 16-colour global table, then its one image.
    static let staticGIFImage = 13 + 48
    static let staticGIFCodeSize = staticGIFImage + 10

    static let imagesDirectory: String = {
        var root = "\(#filePath)"
        for _ in 0 ..< 3 { root = FileSystem.parentDirectory(of: root) }
        return FileSystem.join(root, "TestAssets/Images")
    }()

    static func path(_ name: String) -> String { FileSystem.join(imagesDirectory, name) }

    static func load(_ name: String) -> [UInt8] {
        do { return try FileSystem.readFile(path(name)) } catch {
            Issue.record("cannot read fixture: \(error)")
            return []
        }
    }

    /// The in-memory verifier's refusal, after checking that the stream verifier (what downloads use)
    /// decides the same, in the same words, fed in pieces of several sizes.
    static func refusal(_ bytes: [UInt8]) -> Outcome? {
        let decision = Result { () throws(Outcome) in try ImageVerifier.verify(bytes: bytes) }
        expectStreamAgrees(bytes, decision)
        if case .failure(let outcome) = decision { return outcome }
        return nil
    }

    /// Fed in pieces of 1, 2, 3, 64 and 16 KiB bytes, and whole, the stream verifier decides `decision`.
    static func expectStreamAgrees(
        _ bytes: [UInt8], _ decision: Result<ImageType, Outcome>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for pieceSize in [1, 2, 3, 64, 16 * 1024, bytes.count] where pieceSize < 4 || pieceSize <= max(bytes.count, 1) {
            let streamed = ImageStreamVerifier.decide(bytes, pieceSize: pieceSize)
            #expect(streamed == decision, "in pieces of \(pieceSize)", sourceLocation: sourceLocation)
        }
    }

    static func refusal(fileAt path: String) -> Outcome? {
        do { _ = try ImageVerifier.verify(fileAt: path) } catch { return error }
        return nil
    }

    static func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/carillon-imgver-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        let directory = try #require(made.map { String(cString: $0) })
        defer {
            for name in (try? FileSystem.contentsOfDirectory(directory)) ?? [] {
                try? FileSystem.removeFile(FileSystem.join(directory, name))
            }
            rmdir(directory)
        }
        try body(directory)
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
            if Array(bytes[(offset + 4) ..< (offset + 8)]) == Array(type.utf8) { return (offset, length) }
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
        var data = Array(bytes[16 ..< 29])
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
