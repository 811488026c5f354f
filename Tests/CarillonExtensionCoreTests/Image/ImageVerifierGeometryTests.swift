import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The geometry the verifier reads from the headers it checks (PNG's IHDR, the JPEG frame header, GIF's
/// logical screen and image descriptors), which the transfer trace reports as its `image` (SPEC §6), and
/// the rule that turns it into the trace's value. Each expectation is the header's own field, written or
/// read independently of the verifier (`file(1)` on the fixtures, TestAssets/Images/README.md).
@Suite struct ImageVerifierGeometryTests {
    struct GeometryCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var fixture: String
        var width: Int
        var height: Int
        var frames: Int
        /// The trace's image, nil when the header gave no size.
        var traced: Bool = true
        var change: @Sendable ([UInt8]) -> [UInt8] = { $0 }
    }

    typealias F = ImageFixtures

    static let cases: [GeometryCase] = [
        // The fixtures as they are.
        GeometryCase(testDescription: "sample.png", fixture: "sample.png", width: 16, height: 12, frames: 1),
        GeometryCase(testDescription: "paletted-interlaced.png", fixture: "paletted-interlaced.png", width: 16, height: 12, frames: 1),
        GeometryCase(testDescription: "sample.jpg", fixture: "sample.jpg", width: 16, height: 16, frames: 1),
        GeometryCase(testDescription: "progressive.jpg", fixture: "progressive.jpg", width: 16, height: 16, frames: 1),
        GeometryCase(testDescription: "static.gif", fixture: "static.gif", width: 16, height: 12, frames: 1),
        GeometryCase(testDescription: "animated.gif", fixture: "animated.gif", width: 16, height: 12, frames: 3),
        // Sizes that tell width from height and reach the fields' high bytes (the pixel data is not read).
        GeometryCase(testDescription: "PNG IHDR 70000×300", fixture: "sample.png", width: 70_000, height: 300, frames: 1) { bytes in
            F.rewritingIHDR(bytes) { data in data[0..<8] = [0, 1, 0x11, 0x70, 0, 0, 1, 0x2C] }
        },
        GeometryCase(testDescription: "JPEG SOF0 300×20", fixture: "sample.jpg", width: 300, height: 20, frames: 1) { bytes in
            var bytes = bytes
            let frame = F.jpegSegment(0xC0, in: bytes).offset
            bytes[(frame + 5)..<(frame + 9)] = [0, 20, 1, 0x2C]
            return bytes
        },
        GeometryCase(testDescription: "GIF screen 300×20", fixture: "animated.gif", width: 300, height: 20, frames: 3) { bytes in
            var bytes = bytes
            bytes[6..<10] = [0x2C, 1, 20, 0]
            return bytes
        },
        // IHDR after a chunk decoders skip: the size is IHDR's, not the bytes at IHDR's usual place.
        GeometryCase(testDescription: "PNG chunk before IHDR", fixture: "sample.png", width: 16, height: 12, frames: 1) { bytes in
            Array(bytes[..<8]) + F.pngChunk(type: "abCd", data: Array(repeating: 7, count: 13)) + Array(bytes[8...])
        },
        // A frame cut short counts: its descriptor was read (only the first 2 frames show; the warning says so).
        GeometryCase(testDescription: "animated.gif cut in frame 3", fixture: "animated.gif", width: 16, height: 12, frames: 3) {
            Array($0.dropLast(30))
        },
        // A logical screen of 0×0 is a size the header does not give: no geometry in the trace.
        GeometryCase(testDescription: "GIF screen 0×0", fixture: "static.gif", width: 0, height: 0, frames: 1, traced: false) { bytes in
            var bytes = bytes
            bytes[6..<10] = [0, 0, 0, 0]
            return bytes
        },
        // One side 0 is still reported, as the header says it.
        GeometryCase(testDescription: "GIF screen 0×12", fixture: "static.gif", width: 0, height: 12, frames: 1) { bytes in
            var bytes = bytes
            bytes[6..<8] = [0, 0]
            return bytes
        },
    ]

    /// The geometry is the header's, however the bytes arrive (`ImageFixtures.decision` checks that the
    /// stream verifier, in pieces of 1, 2, 3, 64 and 16 KiB bytes, decides the whole `VerifiedImage` alike;
    /// here also in pieces of 7).
    @Test(arguments: cases)
    func theVerifiedImageHasTheHeadersGeometry(_ test: GeometryCase) throws {
        let bytes = test.change(F.load(test.fixture))
        let image = try F.decision(bytes).get()
        #expect(image.type == (test.fixture.hasSuffix(".png") ? .png : test.fixture.hasSuffix(".gif") ? .gif : .jpeg))
        #expect([image.width, image.height, image.frames] == [test.width, test.height, test.frames], "\(image)")
        #expect(ImageStreamVerifier.decide(bytes, pieceSize: 7) == .success(image))
        let expected =
            test.traced ? DownloadTrace.Image(type: image.type, width: test.width, height: test.height, frames: test.frames) : nil
        #expect(DownloadTrace.Image(image) == expected)
    }

    /// The trace's rule, from the verified image alone.
    @Test(arguments: [
        (VerifiedImage(type: .png, width: 16, height: 12, frames: 1), DownloadTrace.Image(type: .png, width: 16, height: 12, frames: 1)),
        (VerifiedImage(type: .gif, width: 5, height: 0, frames: 4), DownloadTrace.Image(type: .gif, width: 5, height: 0, frames: 4)),
        (VerifiedImage(type: .gif, width: 0, height: 0, frames: 2, warnings: ["w"]), nil),
    ])
    func theTraceImageIsNilOnlyWithoutASize(_ image: VerifiedImage, _ expected: DownloadTrace.Image?) {
        #expect(DownloadTrace.Image(image) == expected)
    }
}
