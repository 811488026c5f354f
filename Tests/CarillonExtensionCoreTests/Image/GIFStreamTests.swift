import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The GIF rules (``GIFStream``), from a table: each case a change to static.gif (GIF89a, 16×12, a
/// 16-colour global table, one image) or animated.gif (a loop extension, a comment, 3 frames), and what
/// giflib 5.2 makes of it: an image shows once one frame is decoded whole. Every refusal was checked
/// against giflib (the FuzzImageDecoders target does it for every input it tries).
@Suite struct GIFStreamTests {
    typealias F = ImageFixtures

    /// static.gif's image: its descriptor at ``ImageFixtures/staticGIFImage``, its LZW code size after.
    static var image: Int { F.staticGIFImage }

    static let cases: [ImageCase] = [
        // Refused: no frame decodes.
        ImageCase("LZW code size 12", "static.gif", .refused("invalid LZW minimum code size 12")) { bytes in
            var bytes = bytes
            bytes[F.staticGIFCodeSize] = 12
            return bytes
        },
        ImageCase("LZW code size 1", "static.gif", .refused("invalid LZW minimum code size 1")) { bytes in
            var bytes = bytes
            bytes[F.staticGIFCodeSize] = 1
            return bytes
        },
        ImageCase("image of zero height", "static.gif", .refused("GIF image 1 has zero width or height")) { bytes in
            var bytes = bytes
            bytes[image + 7] = 0
            bytes[image + 8] = 0
            return bytes
        },
        ImageCase("no image", "static.gif", .refused("GIF has no image")) { Array($0[..<image]) + [0x3B] },
        ImageCase("image without data", "static.gif", .refused("GIF image 1 has no data")) {
            Array($0[...F.staticGIFCodeSize]) + [0x00, 0x3B]
        },
        ImageCase("unknown block before the image", "static.gif", .refused("GIF has an unknown block 0x99 at offset 61")) { bytes in
            Array(bytes[..<image]) + [0x99] + Array(bytes[image...])
        },
        ImageCase("cut in the global colour table", "static.gif", .refused("GIF truncated in its global colour table")) {
            Array($0[..<30])
        },
        ImageCase("cut in the first frame", "static.gif", .refused("GIF truncated in the data of image 1")) {
            Array($0[..<(F.staticGIFCodeSize + 5)])
        },
        // Shown with a warning: the frames before the damage show.
        ImageCase("without trailer", "static.gif", .warned("GIF has no trailer; its first image shows")) { Array($0.dropLast()) },
        ImageCase("animated, without trailer", "animated.gif", .warned("GIF has no trailer; its first 3 images show")) {
            Array($0.dropLast())
        },
        ImageCase("animated, cut in frame 3", "animated.gif", .warned("GIF truncated in the data of image 3; its first 2 images show")) {
            Array($0.dropLast(30))
        },
        ImageCase("zero screen width", "static.gif", .warned("GIF logical screen has zero width or height (0×12)")) { bytes in
            var bytes = bytes
            bytes[6] = 0
            bytes[7] = 0
            return bytes
        },
        ImageCase(
            "unknown block after the image", "static.gif", .warned("GIF has an unknown block 0x99 at offset 136; its first image shows")
        ) {
            Array($0.dropLast()) + [0x99]
        },
        ImageCase("second image of zero size", "static.gif", .warned("GIF image 2 has zero width or height")) { bytes in
            Array(bytes.dropLast()) + [0x2C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0x4C, 0x01, 0, 0x3B]
        },
        ImageCase("cut in an extension after the image", "static.gif", .warned("GIF truncated in an extension")) {
            Array($0.dropLast()) + [0x21, 0xFE, 5, 0x61]
        },
        // Shown.
        ImageCase("data after the trailer", "static.gif", .clean) { $0 + Array("junk".utf8) },
        ImageCase("GIF87a", "static.gif", .clean) { bytes in
            var bytes = bytes
            bytes[4] = UInt8(ascii: "7")
            return bytes
        },
        ImageCase("animated", "animated.gif", .clean) { $0 },
    ]

    @Test(arguments: cases)
    func verdict(_ change: ImageCase) throws {
        try change.check()
    }
}
