/// The PNG rules of ``ImageVerifier``: signature, IHDR, every chunk with its CRC, IDAT, IEND.
enum PNGStructure {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func verify<Source: ByteSource>(_ source: inout Source) throws(Outcome) {
        var offset = signature.count
        var chunkNumber = 0
        var paletted = false
        var sawPalette = false
        var sawData = false
        while true {
            if offset == source.count {
                throw refusal(chunkNumber == 0 ? "PNG has no IHDR chunk (the file ends after its signature)"
                                               : "PNG has no IEND chunk (truncated after \(chunkNumber) chunk\(chunkNumber == 1 ? "" : "s"))")
            }
            guard source.has(8, at: offset) else { throw refusal("PNG truncated in a chunk header at offset \(offset)") }
            let length = try source.uint32BigEndian(at: offset)
            let typeBytes = try source.bytes(at: offset + 4, count: 4)
            guard typeBytes.allSatisfy(isASCIILetter) else {
                throw refusal("PNG has an invalid chunk type (\(typeBytes.map(hexByte).joined(separator: " "))) at offset \(offset)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else { throw refusal("PNG chunk \(type) has an invalid length \(length)") }
            guard source.has(length + 12, at: offset) else { throw refusal("PNG truncated in chunk \(type)") }
            if chunkNumber == 0 {
                guard type == "IHDR" else { throw refusal("PNG starts with chunk \(type), not IHDR") }
                guard length == 13 else { throw refusal("PNG IHDR has length \(length), not 13") }
            } else if type == "IHDR" {
                throw refusal("PNG has a second IHDR chunk")
            }
            let stored = try UInt32(source.uint32BigEndian(at: offset + 8 + length))
            guard try source.crc32(at: offset + 4, count: length + 4) == stored else {
                throw refusal("PNG \(type) CRC mismatch (chunk at offset \(offset))")
            }
            let data = offset + 8
            switch type {
            case "IHDR":
                paletted = try checkHeader(&source, at: data)
            case "PLTE":
                guard length % 3 == 0 && (3 ... 768).contains(length) else {
                    throw refusal("PNG PLTE has an invalid length \(length)")
                }
                sawPalette = true
            case "IDAT":
                guard !paletted || sawPalette else { throw refusal("PNG has a palette colour type but no PLTE before IDAT") }
                sawData = true
            case "IEND":
                guard length == 0 else { throw refusal("PNG IEND has length \(length), not 0") }
                guard sawData else { throw refusal("PNG has no IDAT chunk") }
                return
            default:
                break
            }
            offset += length + 12
            chunkNumber += 1
        }
    }

    /// Checks IHDR's fields; returns whether the colour type is paletted.
    static func checkHeader<Source: ByteSource>(_ source: inout Source, at data: Int) throws(Outcome) -> Bool {
        let width = try source.uint32BigEndian(at: data)
        let height = try source.uint32BigEndian(at: data + 4)
        let fields = try source.bytes(at: data + 8, count: 5)
        let (depth, colourType, compression, filter, interlace) = (fields[0], fields[1], fields[2], fields[3], fields[4])
        guard width != 0 else { throw refusal("PNG IHDR has zero width") }
        guard height != 0 else { throw refusal("PNG IHDR has zero height") }
        guard width <= 0x7FFF_FFFF && height <= 0x7FFF_FFFF else {
            throw refusal("PNG IHDR has an invalid size \(width)×\(height)")
        }
        let depths: [UInt8]
        switch colourType {
        case 0: depths = [1, 2, 4, 8, 16]
        case 3: depths = [1, 2, 4, 8]
        case 2, 4, 6: depths = [8, 16]
        default: throw refusal("PNG IHDR has an invalid colour type \(colourType)")
        }
        guard depths.contains(depth) else {
            throw refusal("PNG IHDR has an invalid bit depth \(depth) for colour type \(colourType)")
        }
        guard compression == 0 else { throw refusal("PNG IHDR has an unknown compression method \(compression)") }
        guard filter == 0 else { throw refusal("PNG IHDR has an unknown filter method \(filter)") }
        guard interlace <= 1 else { throw refusal("PNG IHDR has an unknown interlace method \(interlace)") }
        return colourType == 3
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte)
    }
}

// MARK: - JPEG
