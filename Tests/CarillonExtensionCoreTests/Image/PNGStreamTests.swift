import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The PNG rules (``PNGStream``), from a table: each case a change to sample.png (16×12, 8-bit RGB:
/// IHDR, tEXt, one IDAT, IEND) or to a palette image built here, and what libpng makes of it — refused,
/// shown with a warning, or shown. Every refusal was checked against libpng 1.6 (the FuzzImageDecoders
/// target does it for every input it tries).
@Suite struct PNGStreamTests {
    typealias F = ImageFixtures

    /// A 4×1 image of 8 bits per sample, colour type 3 (palette) unless told, with `palettes` as PLTE
    /// chunks before its IDAT.
    static func paletted(_ palettes: [[UInt8]], colourType: UInt8 = 3) -> [UInt8] {
        let ihdr = F.pngChunk(type: "IHDR", data: [0, 0, 0, 4, 0, 0, 0, 1, 8, colourType, 0, 0, 0])
        let plte = palettes.flatMap { F.pngChunk(type: "PLTE", data: $0) }
        // zlib of five zero bytes (a filter byte and four pixels of index 0).
        let idat = F.pngChunk(type: "IDAT", data: [0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01])
        let iend = F.pngChunk(type: "IEND", data: [])
        return Array(F.load("sample.png")[..<8]) + ihdr + plte + idat + iend
    }

    static let cases: [ImageCase] = [
        // Refused: libpng cannot decode these.
        ImageCase("IHDR CRC", "sample.png", .refused("PNG IHDR CRC mismatch")) { bytes in
            var bytes = bytes
            bytes[8 + 8 + 13] ^= 0x01
            return bytes
        },
        ImageCase("IDAT CRC", "sample.png", .refused("PNG IDAT CRC mismatch")) { bytes in
            var bytes = bytes
            bytes[F.pngChunk("IDAT", in: bytes).offset + 10] ^= 0x40
            return bytes
        },
        ImageCase("no IDAT", "sample.png", .refused("no IDAT")) { F.removingPNGChunk("IDAT", from: $0) },
        ImageCase("no IHDR", "sample.png", .refused("starts with chunk tEXt")) { F.removingPNGChunk("IHDR", from: $0) },
        ImageCase("zero width", "sample.png", .refused("PNG IHDR has zero width")) { F.rewritingIHDR($0) { $0[0..<4] = [0, 0, 0, 0] } },
        ImageCase("zero height", "sample.png", .refused("PNG IHDR has zero height")) { F.rewritingIHDR($0) { $0[4..<8] = [0, 0, 0, 0] } },
        ImageCase("width 1,000,001", "sample.png", .refused("over 1,000,000 pixels a side")) { bytes in
            F.rewritingIHDR(bytes) { $0[0..<4] = [0x00, 0x0F, 0x42, 0x41] }
        },
        ImageCase("height 2^31", "sample.png", .refused("over 1,000,000 pixels a side")) {
            F.rewritingIHDR($0) { $0[4..<8] = [0x80, 0, 0, 0] }
        },
        ImageCase("RGB at 4 bits", "sample.png", .refused("invalid bit depth 4 for colour type 2")) { F.rewritingIHDR($0) { $0[8] = 4 } },
        ImageCase("colour type 5", "sample.png", .refused("invalid colour type 5")) { F.rewritingIHDR($0) { $0[9] = 5 } },
        ImageCase("filter method 1", "sample.png", .refused("unknown filter method 1")) { F.rewritingIHDR($0) { $0[11] = 1 } },
        ImageCase("interlace 2", "sample.png", .refused("interlace method 2")) { F.rewritingIHDR($0) { $0[12] = 2 } },
        ImageCase("IHDR of 14 bytes", "sample.png", .refused("PNG IHDR has length 14")) { bytes in
            Array(bytes[..<8]) + F.pngChunk(type: "IHDR", data: Array(bytes[16..<29]) + [0]) + Array(bytes[33...])
        },
        ImageCase("palette without PLTE", "sample.png", .refused("no PLTE")) { F.rewritingIHDR($0) { $0[9] = 3 } },
        ImageCase("huge chunk length", "sample.png", .refused("PNG chunk tEXt has an invalid length 4294967295")) { bytes in
            var bytes = bytes
            let text = F.pngChunk("tEXt", in: bytes).offset
            bytes.replaceSubrange(text..<text + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            return bytes
        },
        ImageCase("chunk past the end", "sample.png", .refused("PNG truncated in chunk tEXt")) { bytes in
            var bytes = bytes
            let text = F.pngChunk("tEXt", in: bytes).offset
            bytes.replaceSubrange(text..<text + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
            return bytes
        },
        ImageCase("chunk type not letters", "sample.png", .refused("invalid chunk type")) { bytes in
            var bytes = bytes
            bytes[F.pngChunk("tEXt", in: bytes).offset + 5] = 0x31
            return bytes
        },
        ImageCase("second IHDR", "sample.png", .refused("second IHDR")) { bytes in
            Array(bytes[..<33]) + Array(bytes[8..<33]) + Array(bytes[33...])
        },
        ImageCase("unknown critical chunk", "sample.png", .refused("unknown critical chunk ABCD")) { bytes in
            Array(bytes[..<33]) + F.pngChunk(type: "ABCD", data: [1, 2]) + Array(bytes[33...])
        },
        ImageCase("known ancillary chunk before IHDR", "sample.png", .refused("starts with chunk gAMA")) { bytes in
            Array(bytes[..<8]) + F.pngChunk(type: "gAMA", data: [0, 0, 0xB1, 0x8F]) + Array(bytes[8...])
        },
        ImageCase("IEND before IDAT", "sample.png", .refused("no IDAT chunk (IEND")) { bytes in
            Array(bytes[..<33]) + F.pngChunk(type: "IEND", data: []) + Array(bytes[33...])
        },
        ImageCase("IDATs not consecutive", "sample.png", .refused("IDAT chunks are not consecutive")) { bytes in
            let idat = F.pngChunk("IDAT", in: bytes)
            let data = Array(bytes[(idat.offset + 8)..<(idat.offset + 8 + idat.length)])
            return Array(bytes[..<idat.offset]) + F.pngChunk(type: "IDAT", data: Array(data[..<10]))
                + F.pngChunk(type: "tEXt", data: Array("a\0b".utf8)) + F.pngChunk(type: "IDAT", data: Array(data[10...]))
                + Array(bytes[(idat.offset + 12 + idat.length)...])
        },
        ImageCase("PLTE of 0 bytes in RGB", "sample.png", .refused("PNG PLTE has an invalid length 0")) { bytes in
            Array(bytes[..<33]) + F.pngChunk(type: "PLTE", data: []) + Array(bytes[33...])
        },
        ImageCase("PLTE CRC in RGB", "sample.png", .refused("PNG PLTE CRC mismatch")) { bytes in
            var plte = F.pngChunk(type: "PLTE", data: [0, 0, 0])
            plte[plte.count - 1] ^= 1
            return Array(bytes[..<33]) + plte + Array(bytes[33...])
        },
        ImageCase("palette of 257 entries", "sample.png", .refused("PNG PLTE has an invalid length 771")) { _ in
            paletted([[UInt8](repeating: 7, count: 771)])
        },
        ImageCase("palette of 7 bytes", "sample.png", .refused("PNG PLTE has an invalid length 7")) { _ in
            paletted([[UInt8](repeating: 7, count: 7)])
        },
        ImageCase("two PLTEs", "sample.png", .refused("second PLTE")) { _ in paletted([[1, 2, 3], [4, 5, 6]]) },
        // libpng shows this one: its zlib stream ended in the first IDAT, so libpng never reads the second
        // (a documented difference; in a file whose stream goes on, libpng refuses it).
        ImageCase("second IDAT of invalid length", "sample.png", .refused("PNG chunk IDAT has an invalid length 4294967295")) { bytes in
            Array(bytes.dropLast(12)) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + Array(bytes.suffix(12))
        },
        ImageCase("cut in IDAT", "sample.png", .refused("PNG truncated in chunk IDAT at offset 69")) { bytes in
            Array(bytes[..<(F.pngChunk("IDAT", in: bytes).offset + 30)])
        },
        // Shown with a warning: libpng skips the damage.
        ImageCase("no IEND", "sample.png", .warned("PNG has no IEND chunk: the file ends after its image data")) { Array($0.dropLast(12)) },
        ImageCase("cut in IEND", "sample.png", .warned("PNG has no IEND chunk")) { Array($0.dropLast(6)) },
        ImageCase("IEND with data", "sample.png", .warned("PNG IEND has length 1")) { bytes in
            Array(bytes.dropLast(12)) + F.pngChunk(type: "IEND", data: [0])
        },
        ImageCase("IEND CRC", "sample.png", .warned("PNG IEND CRC mismatch")) { bytes in
            var bytes = bytes
            bytes[bytes.count - 1] ^= 1
            return bytes
        },
        ImageCase("ancillary CRC", "sample.png", .warned("PNG tEXt CRC mismatch (chunk at offset 33); decoders skip the chunk")) { bytes in
            var bytes = bytes
            bytes[F.pngChunk("tEXt", in: bytes).offset + 10] ^= 0x20
            return bytes
        },
        ImageCase("unknown ancillary chunk before IHDR", "sample.png", .warned("PNG chunk abCd comes before IHDR")) { bytes in
            Array(bytes[..<8]) + F.pngChunk(type: "abCd", data: [1]) + Array(bytes[8...])
        },
        ImageCase(
            "unknown critical chunk after the image data", "sample.png",
            .warned("unknown critical chunk ABCD at offset 449 after the image data")
        ) { bytes in
            Array(bytes.dropLast(12)) + F.pngChunk(type: "ABCD", data: []) + Array(bytes.suffix(12))
        },
        ImageCase("PLTE in greyscale", "sample.png", .warned("PLTE chunk in a greyscale image")) { _ in
            paletted([[1, 2, 3]], colourType: 0)
        },
        ImageCase("suggested PLTE of 7 bytes in RGB", "sample.png", .warned("ignore the suggested palette")) { bytes in
            Array(bytes[..<33]) + F.pngChunk(type: "PLTE", data: [UInt8](repeating: 1, count: 7)) + Array(bytes[33...])
        },
        ImageCase("second PLTE after the image data", "sample.png", .clean) { _ in
            let image = paletted([[1, 2, 3]])
            return Array(image.dropLast(12)) + F.pngChunk(type: "PLTE", data: [4, 5, 6]) + Array(image.suffix(12))
        },
        // Shown: well-formed variants.
        ImageCase("zero padding after IEND", "sample.png", .clean) { $0 + [UInt8](repeating: 0, count: 100) },
        ImageCase("one IDAT per byte", "sample.png", .clean) { bytes in
            let idat = F.pngChunk("IDAT", in: bytes)
            let data = Array(bytes[(idat.offset + 8)..<(idat.offset + 8 + idat.length)])
            return Array(bytes[..<idat.offset]) + data.flatMap { F.pngChunk(type: "IDAT", data: [$0]) }
                + Array(bytes[(idat.offset + 12 + idat.length)...])
        },
        ImageCase("palette image", "sample.png", .clean) { _ in paletted([[1, 2, 3, 4, 5, 6]]) },
        ImageCase("paletted, interlaced", "paletted-interlaced.png", .clean) { $0 },
    ]

    @Test(arguments: cases)
    func verdict(_ change: ImageCase) throws {
        try change.check()
    }

    /// A chunk type with a byte that is not an ASCII letter, as libpng's `png_check_chunk_name` sees
    /// it: refused wherever the chunk is (here after the image data, where a damaged chunk is otherwise
    /// only a warning), named with its odd bytes escaped. Letters of either case are types.
    @Test(
        arguments: [
            ([0x49, 0x44, 0x00, 0x54], "ID\\x00T"),
            ([0x41, 0x42, 0x31, 0x44], "AB1D"),
            ([0x74, 0x45, 0x20, 0x74], "tE t"),
            ([0x40, 0x42, 0x43, 0x44], "@BCD"),  // one below "A"
            ([0x5B, 0x42, 0x43, 0x44], "[BCD"),  // one above "Z"
            ([0x60, 0x62, 0x63, 0x64], "`bcd"),  // one below "a"
            ([0x7B, 0x62, 0x63, 0x64], "{bcd"),  // one above "z"
            ([0x1B, 0x5B, 0x32, 0x4A], "\\x1B[2J"),  // a terminal escape, shown escaped
            ([0x7F, 0x62, 0x63, 0x64], "\\x7Fbcd"),
            ([0xC3, 0xA9, 0x63, 0x64], "écd"),  // UTF-8 letters are not ASCII letters
            ([0xFF, 0x62, 0x63, 0x64], "\\xFFbcd"),
        ] as [([UInt8], String)])
    func aChunkTypeThatIsNotFourLettersIsRefusedAfterTheImageDataToo(type: [UInt8], shown: String) throws {
        let sample = F.load("sample.png")
        let bytes = Array(sample.dropLast(12)) + [0, 0, 0, 0] + type + [0, 0, 0, 0] + Array(sample.suffix(12))
        let expected = "PNG has an invalid chunk type '\(shown)' at offset \(sample.count - 12)"
        try ImageCase("type \(type)", "sample.png", .refused(expected)) { _ in bytes }.check()
    }

    @Test(arguments: ["abCd", "ABCD", "zzzz", "AAAA", "ZaZa"])
    func aChunkTypeOfFourLettersOfEitherCaseIsAType(type: String) throws {
        let sample = F.load("sample.png")
        let bytes = Array(sample.dropLast(12)) + F.pngChunk(type: type, data: []) + Array(sample.suffix(12))
        // After the image data a chunk of any such type is shown (an unknown critical one with a warning).
        do {
            _ = try ImageVerifier.verify(bytes: bytes)
        } catch {
            Issue.record("refused: \(error.detail)")
        }
    }
}
