/// The image decision (the rules are ``ImageVerifier``'s) made on the bytes as they arrive, so that a
/// download is verified while it streams to its file instead of being read back afterwards (for a 10 MiB
/// image that read-back was a tenth of the whole run). ``ImageVerifier`` runs on it too: this is the one
/// implementation of the rules.
///
/// Feed every body byte, in order and in pieces of any size, then call ``finish()``. The decision and its
/// detail are the same however the bytes are split; the tests and the image fuzz target check exactly
/// that. Memory is bounded: at most 1 KiB of the head (to name a foreign format) and a few header bytes,
/// whatever the size.
///
/// Once the image is complete (PNG `IEND`, JPEG `EOI`, GIF trailer) or refused, later bytes are ignored:
/// decoders ignore what follows.
///
/// ```swift
/// var verifier = ImageStreamVerifier()
/// for piece in body { piece.withUnsafeBufferPointer { verifier.feed($0) } }
/// let type = try verifier.finish().get()
/// ```
public struct ImageStreamVerifier: Sendable {
    private enum Phase {
        /// Fewer than 8 bytes so far: not enough to tell PNG, JPEG and GIF apart.
        case detecting
        case png
        case jpeg
        case gif
        /// Not a JPEG, PNG or GIF: the head is kept (up to 1 KiB) for the detail.
        case foreign
        case decided(Result<ImageType, Outcome>)
    }

    private var phase = Phase.detecting
    /// The first bytes: up to 8 while detecting, up to 1 KiB for a foreign format.
    private var head: [UInt8] = []
    private var png = PNGStream()
    private var jpeg = JPEGStream()
    private var gif = GIFStream()

    /// How many bytes a format needs to be told apart (the PNG signature's length).
    private static let detectionLength = 8
    /// How much of a foreign file is kept to describe it (``ImageVerifier``'s head).
    private static let foreignHeadLength = 1024

    public init() {}

    /// Takes the next bytes of the body.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch phase {
        case .decided:
            return
        case .foreign:
            let wanted = min(Self.foreignHeadLength - head.count, bytes.count)
            if wanted > 0 { head.append(contentsOf: bytes[..<wanted]) }
            return
        case .detecting:
            let wanted = min(Self.detectionLength - head.count, bytes.count)
            head.append(contentsOf: bytes[..<wanted])
            guard head.count == Self.detectionLength else { return }
            start()
            feed(UnsafeBufferPointer(rebasing: bytes[wanted...]))
        case .png, .jpeg, .gif:
            consume(bytes)
        }
    }

    /// The decision once every byte has been fed: the type, or why not (``Reason/emptyBody`` or
    /// ``Reason/unsupportedType``, with the same detail as ``ImageVerifier``).
    public func finish() -> Result<ImageType, Outcome> {
        switch phase {
        case .decided(let result):
            return result
        case .detecting:
            // Fewer than 8 bytes in all: decided on what there is, as a longer head would be.
            guard !head.isEmpty else { return .failure(Outcome(.emptyBody, "the image is empty (0 bytes)")) }
            var whole = self
            whole.start()
            return whole.finish()
        case .foreign:
            return .failure(refusal("not a JPEG, PNG or GIF: \(ForeignFormat.describe(head))"))
        case .png:
            return .failure(png.end())
        case .jpeg:
            return .failure(jpeg.end())
        case .gif:
            return .failure(gif.end())
        }
    }

    /// Whether the decision is made (the image is complete or refused): later bytes change nothing.
    var isDecided: Bool {
        if case .decided = phase { return true }
        return false
    }

    /// Chooses the format from the head (its first 8 bytes, or all there are) and has its parser read the
    /// head: the parsers count offsets from the file's first byte.
    private mutating func start() {
        if head.starts(with: ImageSignature.png) {
            phase = .png
        } else if head.starts(with: ImageSignature.jpeg) {
            phase = .jpeg
        } else if head.starts(with: ImageSignature.gif87) || head.starts(with: ImageSignature.gif89) {
            phase = .gif
        } else {
            phase = .foreign
            return
        }
        let head = head
        head.withUnsafeBufferPointer { consume($0) }
    }

    /// Feeds `bytes` in pieces of `pieceSize` (the last one may be shorter) and finishes: the decision as a
    /// download split that way would reach it. For tests and the fuzzer.
    public static func decide(_ bytes: [UInt8], pieceSize: Int) -> Result<ImageType, Outcome> {
        var verifier = ImageStreamVerifier()
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(start + max(pieceSize, 1), all.count)
                verifier.feed(UnsafeBufferPointer(rebasing: all[start ..< end]))
                start = end
            }
        }
        return verifier.finish()
    }

    private mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let verdict: Verdict
        switch phase {
        case .png: verdict = png.consume(bytes, &index)
        case .jpeg: verdict = jpeg.consume(bytes, &index)
        case .gif: verdict = gif.consume(bytes, &index)
        default: return
        }
        switch verdict {
        case .pending: break
        case .accepted(let type): phase = .decided(.success(type))
        case .refused(let outcome): phase = .decided(.failure(outcome))
        }
    }
}

/// What a format's stream parser says after a piece.
private enum Verdict: Sendable {
    case pending
    case accepted(ImageType)
    case refused(Outcome)
}

/// A few bytes a parser needs together (a chunk header, a length) that may arrive split across pieces.
private struct Gathered {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    /// Takes bytes from `input` at `index` until `wanted` are held; true once they are.
    mutating func fill(_ wanted: Int, from input: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        let take = min(wanted - bytes.count, input.count - index)
        if take > 0 {
            bytes.append(contentsOf: input[index ..< index + take])
            index += take
        }
        return bytes.count == wanted
    }

    mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    subscript(position: Int) -> UInt8 { bytes[position] }

    func uint16BigEndian(at offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
    func uint16LittleEndian(at offset: Int) -> Int { Int(bytes[offset + 1]) << 8 | Int(bytes[offset]) }
    func uint32BigEndian(at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}

// MARK: - PNG

/// The PNG rules of ``ImageVerifier``, a chunk at a time.
private struct PNGStream {
    private enum State {
        case header
        case data(remaining: Int)
        case checksum
    }

    private var state = State.header
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
    private var paletted = false
    private var sawPalette = false
    private var sawData = false

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Verdict {
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
                let typeBytes = Array(gathered.bytes[4 ..< 8])
                gathered.reset()
                guard typeBytes.allSatisfy(Self.isASCIILetter) else {
                    return .refused(refusal("PNG has an invalid chunk type (\(typeBytes.map(hexByte).joined(separator: " "))) at offset \(chunkOffset)"))
                }
                type = String(decoding: typeBytes, as: UTF8.self)
                guard length <= 0x7FFF_FFFF else { return .refused(refusal("PNG chunk \(type) has an invalid length \(length)")) }
                crc = typeBytes.withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) }
                header.removeAll()
                state = length > 0 ? .data(remaining: length) : .checksum
            case .data(let remaining):
                let take = min(remaining, input.count - index)
                let piece = UnsafeBufferPointer(rebasing: input[index ..< index + take])
                crc = CRC32.update(crc, piece)
                if type == "IHDR" && header.count < 13 { header.append(contentsOf: piece.prefix(13 - header.count)) }
                index += take
                state = remaining > take ? .data(remaining: remaining - take) : .checksum
            case .checksum:
                guard gathered.fill(4, from: input, at: &index) else { return .pending }
                let stored = UInt32(gathered.uint32BigEndian(at: 0))
                gathered.reset()
                if let verdict = chunkEnded(stored: stored) { return verdict }
                chunkOffset += length + 12
                chunkNumber += 1
                state = .header
            }
        }
        return .pending
    }

    /// The checks made once a whole chunk is there (a chunk cut short is "truncated" first), in order.
    private mutating func chunkEnded(stored: UInt32) -> Verdict? {
        if chunkNumber == 0 {
            guard type == "IHDR" else { return .refused(refusal("PNG starts with chunk \(type), not IHDR")) }
            guard length == 13 else { return .refused(refusal("PNG IHDR has length \(length), not 13")) }
        } else if type == "IHDR" {
            return .refused(refusal("PNG has a second IHDR chunk"))
        }
        guard crc ^ 0xFFFF_FFFF == stored else {
            return .refused(refusal("PNG \(type) CRC mismatch (chunk at offset \(chunkOffset))"))
        }
        switch type {
        case "IHDR":
            do { paletted = try Self.checkHeader(header) } catch { return .refused(error) }
        case "PLTE":
            guard length % 3 == 0 && (3 ... 768).contains(length) else {
                return .refused(refusal("PNG PLTE has an invalid length \(length)"))
            }
            sawPalette = true
        case "IDAT":
            guard !paletted || sawPalette else { return .refused(refusal("PNG has a palette colour type but no PLTE before IDAT")) }
            sawData = true
        case "IEND":
            guard length == 0 else { return .refused(refusal("PNG IEND has length \(length), not 0")) }
            guard sawData else { return .refused(refusal("PNG has no IDAT chunk")) }
            return .accepted(.png)
        default:
            break
        }
        return nil
    }

    /// Checks IHDR's 13 data bytes; returns whether the colour type is paletted.
    private static func checkHeader(_ fields: [UInt8]) throws(Outcome) -> Bool {
        func uint32(_ at: Int) -> Int {
            Int(fields[at]) << 24 | Int(fields[at + 1]) << 16 | Int(fields[at + 2]) << 8 | Int(fields[at + 3])
        }
        let width = uint32(0)
        let height = uint32(4)
        let (depth, colourType, compression, filter, interlace) = (fields[8], fields[9], fields[10], fields[11], fields[12])
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

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte)
    }

    /// Why the bytes ended too soon.
    func end() -> Outcome {
        switch state {
        case .header where gathered.count == 0:
            return refusal(chunkNumber == 0 ? "PNG has no IHDR chunk (the file ends after its signature)"
                                            : "PNG has no IEND chunk (truncated after \(chunkNumber) chunk\(chunkNumber == 1 ? "" : "s"))")
        case .header:
            return refusal("PNG truncated in a chunk header at offset \(chunkOffset)")
        case .data, .checksum:
            return refusal("PNG truncated in chunk \(type)")
        }
    }
}

// MARK: - JPEG

/// The JPEG rules of ``ImageVerifier``, a marker at a time; entropy-coded data is scanned for its next
/// marker.
private struct JPEGStream {
    private enum State {
        /// Expecting the `FF` that starts a marker.
        case lead
        /// After a marker's first `FF`: fill bytes, then the marker.
        case marker
        case length
        case payload(remaining: Int)
        case entropy
        /// Entropy-coded data just had an `FF`.
        case entropyFF
    }

    private var state = State.lead
    /// Bytes consumed before the current piece, so that `input[index]` is at offset `base + index`.
    private var consumed = 0
    private var soiLeft = 2
    private var leadOffset = 0
    private var marker: UInt8 = 0
    private var length = 0
    /// The first payload bytes of a SOF (6) or SOS (1) segment.
    private var payload: [UInt8] = []
    private var gathered = Gathered()
    private var sawFrame = false
    private var sawScan = false

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Verdict {
        let base = consumed - index
        defer { consumed = base + index }
        if soiLeft > 0 {
            let skip = min(soiLeft, input.count - index)
            soiLeft -= skip
            index += skip
        }
        while index < input.count {
            switch state {
            case .lead:
                let lead = input[index]
                guard lead == 0xFF else {
                    return .refused(refusal("JPEG has no marker at offset \(base + index) (found \(hexByte(lead)))"))
                }
                leadOffset = base + index
                index += 1
                state = .marker
            case .marker:
                let byte = input[index]
                let markerOffset = base + index
                index += 1
                if byte == 0xFF { continue }
                marker = byte
                switch byte {
                case 0x00:
                    return .refused(refusal("JPEG has an invalid marker FF 00 at offset \(markerOffset - 1)"))
                case 0x01, 0xD0 ... 0xD7:
                    state = .lead
                case 0xD8:
                    return .refused(refusal("JPEG has a second SOI marker at offset \(markerOffset - 1)"))
                case 0xD9:
                    return sawScan ? .accepted(.jpeg) : .refused(refusal("JPEG ends (EOI) before any image data"))
                default:
                    state = .length
                }
            case .length:
                guard gathered.fill(2, from: input, at: &index) else { return .pending }
                length = gathered.uint16BigEndian(at: 0)
                gathered.reset()
                guard length >= 2 else {
                    return .refused(refusal("JPEG segment \(Self.segmentName(marker)) has an invalid length \(length)"))
                }
                payload.removeAll(keepingCapacity: true)
                if length > 2 {
                    state = .payload(remaining: length - 2)
                } else if let verdict = segmentEnded() {
                    return verdict
                }
            case .payload(let remaining):
                let take = min(remaining, input.count - index)
                if payload.count < 6 { payload.append(contentsOf: input[index ..< index + min(take, 6 - payload.count)]) }
                index += take
                if remaining > take {
                    state = .payload(remaining: remaining - take)
                } else if let verdict = segmentEnded() {
                    return verdict
                }
            case .entropy:
                // A rebased buffer counts from 0: `skipped` bytes before the FF.
                let rest = UnsafeBufferPointer(rebasing: input[index...])
                guard let skipped = rest.firstIndex(of: 0xFF) else {
                    index = input.count
                    return .pending
                }
                leadOffset = base + index + skipped
                index += skipped + 1
                state = .entropyFF
            case .entropyFF:
                switch input[index] {
                case 0x00, 0xD0 ... 0xD7:
                    index += 1
                    state = .entropy
                default:
                    // The FF starts the next marker; this byte is its first fill byte or the marker itself.
                    sawScan = true
                    state = .marker
                }
            }
        }
        return .pending
    }

    /// The checks made once a whole segment is there.
    private mutating func segmentEnded() -> Verdict? {
        let name = Self.segmentName(marker)
        if Self.isFrameHeader(marker) {
            guard length >= 8 else { return .refused(refusal("JPEG \(name) segment is too short (\(length) bytes)")) }
            let width = Int(payload[3]) << 8 | Int(payload[4])
            let components = Int(payload[5])
            guard width != 0 else { return .refused(refusal("JPEG \(name) has zero width")) }
            guard (1 ... 4).contains(components) else {
                return .refused(refusal("JPEG \(name) has \(components) components (1...4 are valid)"))
            }
            guard length >= 8 + 3 * components else {
                return .refused(refusal("JPEG \(name) segment is too short for its \(components) components"))
            }
            sawFrame = true
            state = .lead
        } else if marker == 0xDA {
            guard sawFrame else { return .refused(refusal("JPEG has no SOF segment before SOS")) }
            let components = length >= 3 ? Int(payload[0]) : 0
            guard (1 ... 4).contains(components) && length >= 6 + 2 * components else {
                return .refused(refusal("JPEG SOS segment is malformed"))
            }
            state = .entropy
        } else {
            state = .lead
        }
        return nil
    }

    /// SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15 (C4 is DHT, C8 reserved, CC is DAC).
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0 ... 0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private static func segmentName(_ marker: UInt8) -> String {
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

    /// Why the bytes ended too soon.
    func end() -> Outcome {
        switch state {
        case .lead:
            return refusal(sawScan ? "JPEG has no EOI marker (truncated in its image data)"
                                   : "JPEG truncated before its image data (no SOS segment)")
        case .marker:
            return refusal(sawScan ? "JPEG has no EOI marker (truncated in a marker)" : "JPEG truncated in a marker at offset \(leadOffset)")
        case .length, .payload:
            return refusal("JPEG truncated in segment \(Self.segmentName(marker))")
        case .entropy, .entropyFF:
            return refusal("JPEG has no EOI marker (truncated in its image data)")
        }
    }
}

// MARK: - GIF

/// The GIF rules of ``ImageVerifier``, a block at a time.
private struct GIFStream {
    private enum State {
        case header
        /// Passing over `remaining` bytes (a colour table), then `next`; `truncated` if the bytes end first.
        case skip(remaining: Int, truncated: String, next: Next)
        case block
        case extensionLabel
        case descriptor
        case codeSize
        case subBlockSize
        case subBlockData(remaining: Int)
    }

    private enum Next {
        case block
        case codeSize
    }

    private var state = State.header
    /// Bytes consumed before the current piece, so that `input[index]` is at offset `base + index`.
    private var consumed = 0
    private var gathered = Gathered()
    private var images = 0
    /// Where the current sub-blocks are, for messages ("an extension", "the data of image 2").
    private var place = ""
    private var inImageData = false
    private var payload = 0

    private var imageNumber: Int { images + 1 }

    mutating func consume(_ input: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Verdict {
        let base = consumed - index
        defer { consumed = base + index }
        while index < input.count {
            switch state {
            case .header:
                guard gathered.fill(13, from: input, at: &index) else { return .pending }
                let width = gathered.uint16LittleEndian(at: 6)
                let height = gathered.uint16LittleEndian(at: 8)
                let flags = gathered[10]
                gathered.reset()
                guard width != 0 && height != 0 else {
                    return .refused(refusal("GIF logical screen has zero width or height (\(width)×\(height))"))
                }
                state = flags & 0x80 != 0
                    ? .skip(remaining: Self.colourTableSize(flags), truncated: "GIF truncated in its global colour table", next: .block)
                    : .block
            case .skip(let remaining, let truncated, let next):
                let take = min(remaining, input.count - index)
                index += take
                if remaining > take {
                    state = .skip(remaining: remaining - take, truncated: truncated, next: next)
                } else {
                    state = next == .block ? .block : .codeSize
                }
            case .block:
                let introducer = input[index]
                switch introducer {
                case 0x21:
                    state = .extensionLabel
                case 0x2C:
                    state = .descriptor
                case 0x3B:
                    return images > 0 ? .accepted(.gif) : .refused(refusal("GIF has no image"))
                default:
                    return .refused(refusal("GIF has an unknown block \(hexByte(introducer)) at offset \(base + index)"))
                }
                index += 1
            case .extensionLabel:
                index += 1
                startSubBlocks("an extension", imageData: false)
            case .descriptor:
                guard gathered.fill(9, from: input, at: &index) else { return .pending }
                let width = gathered.uint16LittleEndian(at: 4)
                let height = gathered.uint16LittleEndian(at: 6)
                let flags = gathered[8]
                gathered.reset()
                guard width != 0 && height != 0 else {
                    return .refused(refusal("GIF image \(imageNumber) has zero width or height (\(width)×\(height))"))
                }
                state = flags & 0x80 != 0
                    ? .skip(remaining: Self.colourTableSize(flags),
                            truncated: "GIF truncated in the colour table of image \(imageNumber)", next: .codeSize)
                    : .codeSize
            case .codeSize:
                let codeSize = input[index]
                guard (2 ... 8).contains(codeSize) else {
                    return .refused(refusal("GIF image \(imageNumber) has an invalid LZW minimum code size \(codeSize) (2...8 are valid)"))
                }
                index += 1
                startSubBlocks("the data of image \(imageNumber)", imageData: true)
            case .subBlockSize:
                let size = Int(input[index])
                index += 1
                if size > 0 {
                    payload += size
                    state = .subBlockData(remaining: size)
                } else if inImageData {
                    guard payload > 0 else { return .refused(refusal("GIF image \(imageNumber) has no data")) }
                    images += 1
                    state = .block
                } else {
                    state = .block
                }
            case .subBlockData(let remaining):
                let take = min(remaining, input.count - index)
                index += take
                state = remaining > take ? .subBlockData(remaining: remaining - take) : .subBlockSize
            }
        }
        return .pending
    }

    /// 3 × 2^(N+1) bytes for the size field N in a descriptor's flags.
    private static func colourTableSize(_ flags: UInt8) -> Int {
        3 << (Int(flags & 0x07) + 1)
    }

    private mutating func startSubBlocks(_ place: String, imageData: Bool) {
        self.place = place
        inImageData = imageData
        payload = 0
        state = .subBlockSize
    }

    /// Why the bytes ended too soon.
    func end() -> Outcome {
        switch state {
        case .header:
            return refusal("GIF truncated in its header")
        case .skip(_, let truncated, _):
            return refusal(truncated)
        case .block:
            return refusal(images == 0 ? "GIF truncated before its first image"
                                       : "GIF has no trailer (truncated after \(images) image\(images == 1 ? "" : "s"))")
        case .extensionLabel:
            return refusal("GIF truncated in an extension")
        case .descriptor:
            return refusal("GIF truncated in the descriptor of image \(imageNumber)")
        case .codeSize:
            return refusal("GIF truncated before the data of image \(imageNumber)")
        case .subBlockSize, .subBlockData:
            return refusal("GIF truncated in \(place)")
        }
    }
}
