/// Width, height and frame count of an image, read as its bytes stream in, for the transfer trace.
///
/// It only reads the fields it needs — PNG's IHDR, the JPEG frame header, GIF's logical screen and
/// block structure (skipping sub-blocks by their lengths, so a frame count costs one step per 255
/// bytes) — and trusts ``ImageStreamVerifier`` for the verdict: its result is only used for an image
/// the verifier accepted. (Kept beside the attacher, outside `Image/`, until that folder's split by
/// format lands; it may then move there.)
@_spi(Tooling) public struct ImageGeometry: Sendable {
    public init() {}

    private enum Step {
        case signature
        case pngHeader
        case jpegMarker, jpegCode
        case jpegLength(marker: UInt8)
        case jpegFrame
        case gifScreen, gifBlock, gifDescriptor, gifCodeSize, gifExtensionLabel, gifSubBlock
        case finished
    }

    private var step = Step.signature
    private var wanted = 2
    private var gathered: [UInt8] = []
    private var skipping = 0
    private(set) var width = 0
    private(set) var height = 0
    private(set) var frames = 0

    /// Reads the next piece of the image.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < bytes.count {
            if case .finished = step { return }
            if skipping > 0 {
                let taken = min(skipping, bytes.count - index)
                skipping -= taken
                index += taken
                continue
            }
            let taken = min(wanted - gathered.count, bytes.count - index)
            gathered.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + taken]))
            index += taken
            if gathered.count == wanted {
                let fields = gathered
                gathered.removeAll(keepingCapacity: true)
                advance(fields)
            }
        }
    }

    /// The geometry of a verified image of `type`, or nil when its fields were not found.
    public func image(_ type: ImageType) -> DownloadTrace.Image? {
        guard width > 0 || height > 0 else { return nil }
        return DownloadTrace.Image(type: type, width: width, height: height, frames: max(frames, 1))
    }

    private mutating func next(_ step: Step, gather count: Int, skip: Int = 0) {
        self.step = step
        wanted = count
        skipping = skip
    }

    private mutating func advance(_ fields: [UInt8]) {
        switch step {
        case .signature:
            if fields == [0xFF, 0xD8] {
                next(.jpegMarker, gather: 1)
            } else if fields == [0x89, 0x50] {
                next(.pngHeader, gather: 22)
            } else if fields == [0x47, 0x49] {
                next(.gifScreen, gather: 11)
            } else {
                step = .finished
            }
        case .pngHeader:
            // The rest of the signature (6), IHDR's length and type (8), then width and height.
            width = Int(fields[14]) << 24 | Int(fields[15]) << 16 | Int(fields[16]) << 8 | Int(fields[17])
            height = Int(fields[18]) << 24 | Int(fields[19]) << 16 | Int(fields[20]) << 8 | Int(fields[21])
            frames = 1
            step = .finished
        case .jpegMarker:
            if fields[0] == 0xFF { next(.jpegCode, gather: 1) } else { next(.jpegMarker, gather: 1) }
        case .jpegCode:
            let code = fields[0]
            switch code {
            case 0xFF: next(.jpegCode, gather: 1)
            case 0x00, 0x01, 0xD0...0xD7: next(.jpegMarker, gather: 1)
            case 0xD9, 0xDA: step = .finished
            default: next(.jpegLength(marker: code), gather: 2)
            }
        case .jpegLength(let marker):
            let length = Int(fields[0]) << 8 | Int(fields[1])
            if Self.startOfFrame.contains(marker) && length >= 7 {
                next(.jpegFrame, gather: 5)
            } else {
                next(.jpegMarker, gather: 1, skip: max(length - 2, 0))
            }
        case .jpegFrame:
            height = Int(fields[1]) << 8 | Int(fields[2])
            width = Int(fields[3]) << 8 | Int(fields[4])
            frames = 1
            step = .finished
        case .gifScreen:
            // "F8xa" (4), then the logical screen: width, height (little-endian), flags, background, aspect.
            width = Int(fields[4]) | Int(fields[5]) << 8
            height = Int(fields[6]) | Int(fields[7]) << 8
            next(.gifBlock, gather: 1, skip: Self.colourTable(fields[8]))
        case .gifBlock:
            switch fields[0] {
            case 0x2C: next(.gifDescriptor, gather: 9)
            case 0x21: next(.gifExtensionLabel, gather: 1)
            default: step = .finished  // the trailer, or damage the verifier has judged
            }
        case .gifDescriptor:
            frames += 1
            next(.gifCodeSize, gather: 1, skip: Self.colourTable(fields[8]))
        case .gifCodeSize, .gifExtensionLabel:
            next(.gifSubBlock, gather: 1)
        case .gifSubBlock:
            if fields[0] == 0 { next(.gifBlock, gather: 1) } else { next(.gifSubBlock, gather: 1, skip: Int(fields[0])) }
        case .finished:
            break
        }
    }

    private static let startOfFrame: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]

    /// The size of the colour table a GIF flags byte announces (0 without one).
    private static func colourTable(_ flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }
}
