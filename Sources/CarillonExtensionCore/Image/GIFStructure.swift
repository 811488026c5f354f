/// The GIF rules of ``ImageVerifier``: header, logical screen, blocks and images, the trailer.
enum GIFStructure {
    static let signature87 = Array("GIF87a".utf8)
    static let signature89 = Array("GIF89a".utf8)

    static func verify<Source: ByteSource>(_ source: inout Source) throws(Outcome) {
        guard source.has(13, at: 0) else { throw refusal("GIF truncated in its header") }
        let width = try source.uint16LittleEndian(at: 6)
        let height = try source.uint16LittleEndian(at: 8)
        let flags = try source.byte(at: 10)
        guard width != 0 && height != 0 else { throw refusal("GIF logical screen has zero width or height (\(width)×\(height))") }
        var offset = 13
        if flags & 0x80 != 0 {
            let size = colourTableSize(flags)
            guard source.has(size, at: offset) else { throw refusal("GIF truncated in its global colour table") }
            offset += size
        }
        var images = 0
        while true {
            guard offset < source.count else {
                throw refusal(images == 0 ? "GIF truncated before its first image"
                                          : "GIF has no trailer (truncated after \(images) image\(images == 1 ? "" : "s"))")
            }
            let introducer = try source.byte(at: offset)
            switch introducer {
            case 0x21:
                guard source.has(2, at: offset) else { throw refusal("GIF truncated in an extension") }
                offset = try skipSubBlocks(&source, from: offset + 2, in: "an extension").end
            case 0x2C:
                let number = images + 1
                guard source.has(10, at: offset) else { throw refusal("GIF truncated in the descriptor of image \(number)") }
                let imageWidth = try source.uint16LittleEndian(at: offset + 5)
                let imageHeight = try source.uint16LittleEndian(at: offset + 7)
                let imageFlags = try source.byte(at: offset + 9)
                guard imageWidth != 0 && imageHeight != 0 else {
                    throw refusal("GIF image \(number) has zero width or height (\(imageWidth)×\(imageHeight))")
                }
                offset += 10
                if imageFlags & 0x80 != 0 {
                    let size = colourTableSize(imageFlags)
                    guard source.has(size, at: offset) else { throw refusal("GIF truncated in the colour table of image \(number)") }
                    offset += size
                }
                guard offset < source.count else { throw refusal("GIF truncated before the data of image \(number)") }
                let codeSize = try source.byte(at: offset)
                guard (2 ... 8).contains(codeSize) else {
                    throw refusal("GIF image \(number) has an invalid LZW minimum code size \(codeSize) (2...8 are valid)")
                }
                let data = try skipSubBlocks(&source, from: offset + 1, in: "the data of image \(number)")
                guard data.payload > 0 else { throw refusal("GIF image \(number) has no data") }
                offset = data.end
                images = number
            case 0x3B:
                guard images > 0 else { throw refusal("GIF has no image") }
                return
            default:
                throw refusal("GIF has an unknown block \(hexByte(introducer)) at offset \(offset)")
            }
        }
    }

    /// 3 × 2^(N+1) bytes for the size field N in a descriptor's flags.
    static func colourTableSize(_ flags: UInt8) -> Int {
        3 << (Int(flags & 0x07) + 1)
    }

    /// Walks sub-blocks from `offset` to their 0 terminator: the offset after it and the bytes they carry.
    private static func skipSubBlocks<Source: ByteSource>(
        _ source: inout Source, from offset: Int, in place: String
    ) throws(Outcome) -> (end: Int, payload: Int) {
        var offset = offset
        var payload = 0
        while true {
            guard offset < source.count else { throw refusal("GIF truncated in \(place)") }
            let size = try Int(source.byte(at: offset))
            offset += 1
            if size == 0 { return (offset, payload) }
            guard source.has(size, at: offset) else { throw refusal("GIF truncated in \(place)") }
            offset += size
            payload += size
        }
    }
}

// MARK: - Everything else
