/// The JPEG rules of ``ImageVerifier``: SOI, marker segments, a SOF before SOS, scans skipped to EOI.
enum JPEGStructure {
    static func verify<Source: ByteSource>(_ source: inout Source) throws(Outcome) {
        var offset = 2
        var sawFrame = false
        var sawScan = false
        while true {
            guard offset < source.count else {
                throw refusal(sawScan ? "JPEG has no EOI marker (truncated in its image data)"
                                      : "JPEG truncated before its image data (no SOS segment)")
            }
            let lead = try source.byte(at: offset)
            guard lead == 0xFF else {
                throw refusal("JPEG has no marker at offset \(offset) (found \(hexByte(lead)))")
            }
            var markerOffset = offset + 1
            while markerOffset < source.count, try source.byte(at: markerOffset) == 0xFF { markerOffset += 1 }
            guard markerOffset < source.count else {
                throw refusal(sawScan ? "JPEG has no EOI marker (truncated in a marker)" : "JPEG truncated in a marker at offset \(offset)")
            }
            let marker = try source.byte(at: markerOffset)
            let name = segmentName(marker)
            switch marker {
            case 0x00:
                throw refusal("JPEG has an invalid marker FF 00 at offset \(markerOffset - 1)")
            case 0x01, 0xD0 ... 0xD7:
                offset = markerOffset + 1
                continue
            case 0xD8:
                throw refusal("JPEG has a second SOI marker at offset \(markerOffset - 1)")
            case 0xD9:
                guard sawScan else { throw refusal("JPEG ends (EOI) before any image data") }
                return
            default:
                break
            }
            guard source.has(2, at: markerOffset + 1) else { throw refusal("JPEG truncated in segment \(name)") }
            let length = try source.uint16BigEndian(at: markerOffset + 1)
            guard length >= 2 else { throw refusal("JPEG segment \(name) has an invalid length \(length)") }
            guard source.has(length, at: markerOffset + 1) else { throw refusal("JPEG truncated in segment \(name)") }
            let payload = markerOffset + 3
            offset = markerOffset + 1 + length
            if isFrameHeader(marker) {
                guard length >= 8 else { throw refusal("JPEG \(name) segment is too short (\(length) bytes)") }
                let width = try source.uint16BigEndian(at: payload + 3)
                let components = try Int(source.byte(at: payload + 5))
                guard width != 0 else { throw refusal("JPEG \(name) has zero width") }
                guard (1 ... 4).contains(components) else {
                    throw refusal("JPEG \(name) has \(components) components (1...4 are valid)")
                }
                guard length >= 8 + 3 * components else {
                    throw refusal("JPEG \(name) segment is too short for its \(components) components")
                }
                sawFrame = true
            } else if marker == 0xDA {
                guard sawFrame else { throw refusal("JPEG has no SOF segment before SOS") }
                let components = length >= 3 ? try Int(source.byte(at: payload)) : 0
                guard (1 ... 4).contains(components) && length >= 6 + 2 * components else {
                    throw refusal("JPEG SOS segment is malformed")
                }
                guard let next = try nextMarker(&source, from: offset) else {
                    throw refusal("JPEG has no EOI marker (truncated in its image data)")
                }
                offset = next
                sawScan = true
            }
        }
    }

    /// Skips a scan's entropy-coded data: the offset of the `FF` that starts the next marker other than
    /// a stuffed `FF 00` or a restart marker, or nil when the file ends first.
    private static func nextMarker<Source: ByteSource>(_ source: inout Source, from start: Int) throws(Outcome) -> Int? {
        var position = start
        while position < source.count {
            let piece = min(byteSourceChunk, source.count - position)
            let found = try source.read(offset: position, count: piece) { $0.firstIndex(of: 0xFF) }
            guard let index = found else {
                position += piece
                continue
            }
            let candidate = position + index
            guard candidate + 1 < source.count else { return nil }
            switch try source.byte(at: candidate + 1) {
            case 0x00, 0xD0 ... 0xD7: position = candidate + 2
            default: return candidate
            }
        }
        return nil
    }

    /// SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15 (C4 is DHT, C8 reserved, CC is DAC).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0 ... 0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    static func segmentName(_ marker: UInt8) -> String {
        switch marker {
        case 0xC4: return "DHT"
        case 0xCC: return "DAC"
        case _ where isFrameHeader(marker): return "SOF\(marker - 0xC0)"
        case 0xDA: return "SOS"
        case 0xDB: return "DQT"
        case 0xDD: return "DRI"
        case 0xE0 ... 0xEF: return "APP\(marker - 0xE0)"
        case 0xFE: return "COM"
        default: return "FF \(hexByte(marker).dropFirst(2))"
        }
    }
}

// MARK: - GIF
