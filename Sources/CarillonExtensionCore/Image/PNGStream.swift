/// The PNG rules, a chunk at a time, as libpng 1.6 applies them up to the end of the image data (the
/// rows are decoded by then: `png_read_image` has returned; what follows is read by `png_read_end`
/// and cannot take the image back):
///
/// - the 8-byte signature; every chunk a length ≤ 2^31-1, a type of four ASCII letters and, when it is
///   all there, a CRC-32 (zlib's, as libpng's);
/// - `IHDR` first (only a chunk libpng does not know, with a lowercase first letter, may come before
///   it: skipped, with a warning), of length 13, with a width and height of 1...1,000,000 (libpng's
///   default user limit), a bit depth that suits the colour type (0: 1/2/4/8/16; 2, 4, 6: 8/16;
///   3: 1/2/4/8), compression 0, filter 0 and interlace 0 or 1; a correct CRC; never a second one;
/// - before the image data: a critical chunk (`IHDR`, `PLTE`, `IDAT`) with a bad CRC, an unknown
///   critical chunk (uppercase first letter), `IEND`, or a second `PLTE` is refused; an ancillary
///   chunk with a bad CRC is skipped with a warning, as libpng does (its contents are not read);
/// - `PLTE`: for colour type 3, 1...256 entries (a length that is a nonzero multiple of 3, ≤ 768)
///   before the first `IDAT`; for RGB a suggested palette, ignored with a warning if its length is
///   wrong (but not 0); for greyscale ignored with a warning;
/// - the `IDAT` chunks consecutive: a chunk between two of them is refused, and so is an `IDAT` header
///   with an invalid length (libpng runs out of image data there unless the zlib stream ended before,
///   which only inflating would tell);
/// - once another chunk follows the `IDAT`s the image data is complete: damage from there on (a bad
///   CRC, an invalid chunk, a missing or cut `IEND`) is a warning; the file ending right after the
///   image data is a warning too (no `IEND`). A file cut inside an `IDAT` is refused.
///
/// The zlib stream inside `IDAT` is not inflated (for speed): a stream that is corrupt, too short, or
/// that ends before the last `IDAT` is not seen (the README lists these differences).
struct PNGStream {
    private enum State {
        case header
        case data(remaining: Int)
        case checksum
    }

    /// Where the chunk walk is relative to the image data.
    private enum Stage {
        case beforeHeader
        case beforeData
        case inData
        case afterData
    }

    private var state = State.header
    private var stage = Stage.beforeHeader
    /// Bytes of the signature still to pass over.
    private var signatureLeft = ImageSignature.png.count
    private var chunkOffset = ImageSignature.png.count
    private var chunkNumber = 0
    private var length = 0
    private var type = ""
    private var crc: UInt32 = 0
    private var gathered = Gathered()
    /// IHDR's 13 data bytes.
    private var header: [UInt8] = []
    private var colourType: UInt8 = 0
    /// IHDR's, once it is checked.
    private var width = 0
    private var height = 0
    private var sawPalette = false
    private var warnings = ImageWarnings()

    /// The chunks libpng 1.6 reads itself; an ancillary chunk it does not know is skipped even before IHDR.
    private static let known: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "bKGD", "cHRM", "eXIf", "gAMA", "hIST", "iCCP", "iTXt", "oFFs", "pCAL",
        "pHYs", "sBIT", "sCAL", "sPLT", "sRGB", "tEXt", "tIME", "tRNS", "zTXt",
    ]

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> StreamVerdict {
        if signatureLeft > 0 {
            let skip = min(signatureLeft, input.count - index)
            signatureLeft -= skip
            index += skip
        }
        while index < input.count {
            switch state {
            case .header:
                guard gathered.fill(8, from: input, at: &index) else { return .pending }
                length = gathered.uint32BigEndian(at: 0)
                let typeBytes = Array(gathered.bytes[4..<8])
                gathered.reset()
                if let verdict = chunkStarted(typeBytes) { return verdict }
                crc = typeBytes.withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) }
                header.removeAll()
                state = length > 0 ? .data(remaining: length) : .checksum
            case .data(let remaining):
                let take = min(remaining, input.count - index)
                let piece = UnsafeBufferPointer(rebasing: input[index..<index + take])
                crc = CRC32.update(crc, piece)
                if type == "IHDR" && header.count < 13 {
                    header.append(contentsOf: UnsafeBufferPointer(rebasing: piece.prefix(13 - header.count)))
                }
                index += take
                state = remaining > take ? .data(remaining: remaining - take) : .checksum
            case .checksum:
                guard gathered.fill(4, from: input, at: &index) else { return .pending }
                let stored = UInt32(gathered.uint32BigEndian(at: 0))
                gathered.reset()
                if let verdict = chunkEnded(crcMatches: crc ^ 0xFFFF_FFFF == stored) { return verdict }
                chunkOffset += length + 12
                chunkNumber += 1
                state = .header
            }
        }
        return .pending
    }

    /// The checks on a chunk header: its type, its length, and where the chunk is.
    private mutating func chunkStarted(_ typeBytes: [UInt8]) -> StreamVerdict? {
        // libpng's png_check_chunk_name stops the decoder here wherever the chunk is, after the image
        // data too: it reads no further, and reports "invalid chunk type".
        guard typeBytes.allSatisfy(Self.isASCIILetter) else {
            let shown = Quoting.display(FileName.string(fromBytes: typeBytes))
            return .refused(
                refusal("PNG has an invalid chunk type '\(shown)' at offset \(chunkOffset) (each of its 4 bytes must be an ASCII letter)"))
        }
        type = String(decoding: typeBytes, as: UTF8.self)
        guard length <= 0x7FFF_FFFF else {
            // An IDAT is image data still to come, wherever it is.
            let detail = "PNG chunk \(type) has an invalid length \(length)"
            return type == "IDAT" ? .refused(refusal(detail)) : damaged(detail)
        }
        if stage == .inData && type != "IDAT" { stage = .afterData }
        if stage == .afterData && type == "IDAT" {
            return .refused(refusal("PNG IDAT chunks are not consecutive (an IDAT at offset \(chunkOffset) follows other chunks)"))
        }
        return nil
    }

    /// Damage found at `chunkOffset`: a refusal while the image data is to come, a warning that ends the
    /// walk once it is complete (libpng stops there too, after the rows are read).
    private func damaged(_ detail: String) -> StreamVerdict {
        guard stage == .afterData || stage == .inData else { return .refused(refusal(detail)) }
        var warnings = warnings
        warnings.add(detail + " after the image data; the image shows")
        return warnings.accepted(.png, width: width, height: height)
    }

    /// The checks made once a whole chunk is there (a chunk cut short is "truncated" first), in order.
    private mutating func chunkEnded(crcMatches: Bool) -> StreamVerdict? {
        let critical = type.utf8.first.map { $0 & 0x20 == 0 } ?? false
        switch stage {
        case .beforeHeader:
            guard type == "IHDR" else {
                guard !critical && !Self.known.contains(type) else {
                    return .refused(refusal("PNG starts with chunk \(type), not IHDR"))
                }
                warnings.add("PNG chunk \(type) comes before IHDR; decoders skip it")
                return nil
            }
            guard length == 13 else { return .refused(refusal("PNG IHDR has length \(length), not 13")) }
            guard crcMatches else { return .refused(refusal("PNG IHDR CRC mismatch (chunk at offset \(chunkOffset))")) }
            do { (colourType, width, height) = try Self.checkHeader(header) } catch { return .refused(error) }
            stage = .beforeData
            return nil
        case .afterData:
            if type == "IEND" {
                if !crcMatches { warnings.add("PNG IEND CRC mismatch (chunk at offset \(chunkOffset)); decoders ignore it") }
                if length != 0 { warnings.add("PNG IEND has length \(length), not 0; decoders ignore it") }
                return warnings.accepted(.png, width: width, height: height)
            }
            if !crcMatches { return damaged("PNG \(type) CRC mismatch (chunk at offset \(chunkOffset))") }
            if critical && type != "PLTE" && type != "IHDR" && !Self.known.contains(type) {
                return damaged("PNG has an unknown critical chunk \(type) at offset \(chunkOffset)")
            }
            return nil
        case .beforeData, .inData:
            return chunkBeforeImageEnds(crcMatches: crcMatches, critical: critical)
        }
    }

    /// A whole chunk after IHDR and up to the last IDAT.
    private mutating func chunkBeforeImageEnds(crcMatches: Bool, critical: Bool) -> StreamVerdict? {
        if critical && !crcMatches {
            return .refused(refusal("PNG \(type) CRC mismatch (chunk at offset \(chunkOffset))"))
        }
        switch type {
        case "IHDR":
            return .refused(refusal("PNG has a second IHDR chunk"))
        case "PLTE":
            return palette()
        case "IDAT":
            guard colourType != 3 || sawPalette else {
                return .refused(refusal("PNG has a palette colour type but no PLTE before IDAT"))
            }
            stage = .inData
        case "IEND":
            return .refused(refusal("PNG has no IDAT chunk (IEND at offset \(chunkOffset))"))
        case _ where critical:
            return .refused(refusal("PNG has an unknown critical chunk \(type) at offset \(chunkOffset)"))
        default:
            if !crcMatches { warnings.add("PNG \(type) CRC mismatch (chunk at offset \(chunkOffset)); decoders skip the chunk") }
        }
        return nil
    }

    /// PLTE, whose rules depend on the colour type (libpng's `png_handle_PLTE`).
    private mutating func palette() -> StreamVerdict? {
        guard !sawPalette else { return .refused(refusal("PNG has a second PLTE chunk")) }
        sawPalette = true
        let valid = length % 3 == 0 && length <= 768
        switch colourType {
        case 3:
            guard valid && length > 0 else { return .refused(refusal("PNG PLTE has an invalid length \(length)")) }
        case 2, 6:
            guard length > 0 else { return .refused(refusal("PNG PLTE has an invalid length 0")) }
            if !valid { warnings.add("PNG PLTE has an invalid length \(length); decoders ignore the suggested palette") }
        default:
            warnings.add("PNG has a PLTE chunk in a greyscale image; decoders ignore it")
        }
        return nil
    }

    /// Checks IHDR's 13 data bytes; returns the colour type, the width and the height.
    private static func checkHeader(_ fields: [UInt8]) throws(Outcome) -> (colourType: UInt8, width: Int, height: Int) {
        func uint32(_ at: Int) -> Int {
            Int(fields[at]) << 24 | Int(fields[at + 1]) << 16 | Int(fields[at + 2]) << 8 | Int(fields[at + 3])
        }
        let width = uint32(0)
        let height = uint32(4)
        let (depth, colourType, compression, filter, interlace) = (fields[8], fields[9], fields[10], fields[11], fields[12])
        guard width != 0 else { throw refusal("PNG IHDR has zero width") }
        guard height != 0 else { throw refusal("PNG IHDR has zero height") }
        guard width <= 1_000_000 && height <= 1_000_000 else {
            throw refusal("PNG IHDR size \(width)×\(height) is over 1,000,000 pixels a side (libpng's limit)")
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
        return (colourType, width, height)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// The decision when the bytes end before `IEND`.
    func end() -> Result<VerifiedImage, Outcome> {
        var warnings = warnings
        switch (stage, state) {
        case (.afterData, _), (.inData, .header):
            let place = gathered.count == 0 && stage == .inData ? "ends after its image data" : "is cut after its image data"
            warnings.add("PNG has no IEND chunk: the file \(place); the image shows")
            return .success(warnings.image(.png, width: width, height: height))
        case (_, .header) where gathered.count == 0:
            return .failure(
                refusal(
                    chunkNumber == 0
                        ? "PNG has no IHDR chunk (the file ends after its signature)"
                        : "PNG truncated before its image data (after \(counted(chunkNumber, "chunk")))"))
        case (_, .header):
            return .failure(refusal("PNG truncated in a chunk header at offset \(chunkOffset)"))
        case (_, .data), (_, .checksum):
            return .failure(refusal("PNG truncated in chunk \(type) at offset \(chunkOffset)"))
        }
    }
}
