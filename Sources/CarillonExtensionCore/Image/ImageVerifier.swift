#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether bytes are a structurally valid JPEG, PNG or GIF (SPEC §2 "Type"), from the bytes alone.
///
/// The decision never trusts a name, a URL or a `Content-Type`, and it reads files in bounded 64 KiB windows,
/// so a 10 MiB download is never held whole in memory. It never allocates by a length read from the data,
/// and every offset is checked against the size with overflow-free comparisons before it is read.
///
/// What "structurally valid" means here:
///
/// - **PNG**: the 8-byte signature; a first chunk `IHDR` of length 13 whose width and height are
///   1...2^31-1, whose bit depth suits its colour type (0: 1/2/4/8/16; 2, 4, 6: 8/16; 3: 1/2/4/8),
///   with compression 0, filter 0 and interlace 0 or 1. Then every chunk: a length ≤ 2^31-1, a type of
///   four ASCII letters, the whole chunk inside the file, and a correct CRC-32 (all chunks are checked:
///   it is one sequential read). `PLTE` holds 1...256 entries and comes before `IDAT` for colour type 3;
///   at least one `IDAT`; and an `IEND` of length 0 ends it. Bytes after `IEND` are tolerated, as
///   decoders do.
/// - **JPEG**: `FF D8`, then marker segments walked one by one: fill bytes (`FF FF …`) are skipped,
///   `RSTn` and `TEM` stand alone, every other segment has a length ≥ 2 that fits the file. A frame
///   header `SOFn` (C0–C3, C5–C7, C9–CB, CD–CF) of length ≥ 8 with a nonzero width and 1...4 components
///   must come before the first `SOS` (a zero height is legal: `DNL` may give it later). Each scan's
///   entropy-coded data is not decoded, only skipped to its next marker (past stuffed `FF 00` and `RSTn`),
///   and the walk goes on — a progressive JPEG has many scans, with tables between them — until `EOI`
///   (`FF D9`), which must be there: a truncated download loses it. Bytes after `EOI` are tolerated
///   (padding, or the video that motion photos append). Huffman and quantisation tables are not checked.
/// - **GIF**: `GIF87a` or `GIF89a`; a logical screen of nonzero width and height; the global colour table
///   its flags announce; then blocks: extensions (`21`, a label, sub-blocks up to a 0 terminator), images
///   (`2C`, a 9-byte descriptor of nonzero size, an optional local colour table, an LZW minimum code size of
///   2...8, then at least one byte of data sub-blocks), up to the trailer `3B`. The code size range is the
///   GIF89a specification's (it codes even 2-colour images with 2); giflib tolerates up to 11, but no
///   conforming encoder writes anything outside 2...8, so another value is taken as corruption. At least one image and the
///   trailer are required; bytes after the trailer are tolerated. Animated GIFs (NETSCAPE2.0 loop extension,
///   graphic control extensions, many frames) are GIFs like any other.
///
/// Anything else is refused as ``Reason/unsupportedType`` with a detail that names what it is when it is
/// recognisable (WebP, HEIC/HEIF, AVIF, SVG, HTML, XML, gzip, BMP, TIFF, PDF, text, …) or what is wrong
/// with the JPEG, PNG or GIF ("PNG truncated in chunk IDAT", "JPEG has no SOF segment before SOS", …).
public enum ImageVerifier {
    /// Decides the type of an image file from its own bytes, reading it in 64 KiB windows with `pread`.
    ///
    /// - Throws: ``Reason/emptyBody`` for an empty file; ``Reason/storage`` when the file cannot be opened
    ///   or read (the message names the path and `strerror`); ``Reason/unsupportedType`` for anything that
    ///   is not a structurally valid JPEG, PNG or GIF.
    public static func verify(fileAt path: String) throws(Outcome) -> ImageType {
        var source = try FileByteSource(path: path)
        return try decide(&source)
    }

    /// The same decision over bytes in memory (for tests and the fuzzer).
    ///
    /// - Throws: ``Reason/emptyBody`` for no bytes; ``Reason/unsupportedType`` for anything that is not a
    ///   structurally valid JPEG, PNG or GIF.
    public static func verify(bytes: [UInt8]) throws(Outcome) -> ImageType {
        var source = ArrayByteSource(bytes: bytes)
        return try decide(&source)
    }

    /// The one implementation behind both entry points.
    static func decide<Source: ByteSource>(_ source: inout Source) throws(Outcome) -> ImageType {
        guard source.count > 0 else { throw Outcome(.emptyBody, "the image is empty (0 bytes)") }
        let head = try source.bytes(at: 0, count: min(source.count, 1024))
        if head.starts(with: PNGStructure.signature) {
            try PNGStructure.verify(&source)
            return .png
        }
        if head.starts(with: [0xFF, 0xD8]) {
            try JPEGStructure.verify(&source)
            return .jpeg
        }
        if head.starts(with: GIFStructure.signature87) || head.starts(with: GIFStructure.signature89) {
            try GIFStructure.verify(&source)
            return .gif
        }
        throw refusal(ForeignFormat.describe(head))
    }
}

/// An `unsupported-type` outcome with `detail`.
private func refusal(_ detail: String) -> Outcome {
    Outcome(.unsupportedType, detail)
}

/// `0xAB`.
private func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0" + digits : "0x" + digits
}

// MARK: - Reading

/// Bytes the verifier reads at checked offsets: a file through a window, or an array.
protocol ByteSource {
    /// The total number of bytes.
    var count: Int { get }
    /// Calls `body` with the bytes `offset ..< offset + count`, which the caller has checked lie inside the
    /// source; `count` is at most ``byteSourceChunk``.
    mutating func read<Result>(
        offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Outcome) -> Result
}

/// The most bytes one `read` asks for, and the file window's size.
let byteSourceChunk = 64 * 1024

extension ByteSource {
    /// Whether `length` bytes from `offset` lie inside the source, without any overflow.
    func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    mutating func byte(at offset: Int) throws(Outcome) -> UInt8 {
        try read(offset: offset, count: 1) { $0[0] }
    }

    /// A few bytes (at most ``byteSourceChunk``) as an array.
    mutating func bytes(at offset: Int, count: Int) throws(Outcome) -> [UInt8] {
        try read(offset: offset, count: count) { Array($0) }
    }

    mutating func uint16BigEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 2) { Int($0[0]) << 8 | Int($0[1]) }
    }

    mutating func uint16LittleEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 2) { Int($0[1]) << 8 | Int($0[0]) }
    }

    mutating func uint32BigEndian(at offset: Int) throws(Outcome) -> Int {
        try read(offset: offset, count: 4) {
            Int($0[0]) << 24 | Int($0[1]) << 16 | Int($0[2]) << 8 | Int($0[3])
        }
    }

    /// The CRC-32 of `count` bytes from `offset`, read in chunks.
    mutating func crc32(at offset: Int, count: Int) throws(Outcome) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        var position = offset
        let end = offset + count
        while position < end {
            let piece = min(byteSourceChunk, end - position)
            crc = try read(offset: position, count: piece) { CRC32.update(crc, $0) }
            position += piece
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Bytes in memory.
struct ArrayByteSource: ByteSource {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func read<Result>(offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[offset ..< offset + count])) }
    }
}

/// A regular file read with `pread` through one 64 KiB window; owns its descriptor.
final class FileByteSource: ByteSource {
    let path: String
    let count: Int
    private let descriptor: Int32
    private var window = [UInt8](repeating: 0, count: byteSourceChunk)
    private var windowStart = 0
    private var windowCount = 0

    /// Opens `path` (`open`, `fstat`), refusing anything but a regular file.
    init(path: String) throws(Outcome) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.storage("open", path, errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = errno
            close(descriptor)
            throw Self.storage("stat", path, error)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw Self.storage("read", path, (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        self.path = path
        self.descriptor = descriptor
        self.count = Int(info.st_size)
    }

    deinit { close(descriptor) }

    func read<Result>(
        offset: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Outcome) -> Result {
        if offset < windowStart || offset - windowStart > windowCount - count {
            try fill(at: offset)
        }
        let start = offset - windowStart
        return window.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + count])) }
    }

    /// Reads the window starting at `offset`, as far as the file goes (`pread`, retried on `EINTR`).
    private func fill(at offset: Int) throws(Outcome) {
        windowCount = 0
        let wanted = min(byteSourceChunk, count - offset)
        var filled = 0
        while filled < wanted {
            let got = window.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, wanted - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw Self.storage("read", path, errno)
            }
            if got == 0 { throw Outcome(.storage, "read \(path): the file shrank while it was being verified") }
            filled += got
        }
        windowStart = offset
        windowCount = filled
    }

    private static func storage(_ operation: String, _ path: String, _ error: Int32) -> Outcome {
        Outcome(.storage, FileSystemError(operation, path, errno: error).description)
    }
}

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320, reflected), table-driven.
enum CRC32 {
    static let table: [UInt32] = (0 ..< 256).map { (index: UInt32) -> UInt32 in
        var value = index
        for _ in 0 ..< 8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// Advances a running (pre-inverted) CRC over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc = crc
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            return crc
        }
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
    }
}

// MARK: - PNG

private enum PNGStructure {
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
    private static func checkHeader<Source: ByteSource>(_ source: inout Source, at data: Int) throws(Outcome) -> Bool {
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

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41 ... 0x5A).contains(byte) || (0x61 ... 0x7A).contains(byte)
    }
}

// MARK: - JPEG

private enum JPEGStructure {
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
}

// MARK: - GIF

private enum GIFStructure {
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
    private static func colourTableSize(_ flags: UInt8) -> Int {
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

/// Names what a refused file is, from its first bytes, for the outcome's detail.
enum ForeignFormat {
    static func describe(_ head: [UInt8]) -> String {
        if let truncated = truncatedSignature(head) { return truncated }
        if let named = binaryFormat(head) { return named }
        if let named = markup(head) { return named }
        if isText(head) { return "text" }
        let shown = head.prefix(8).map { String(hexByte($0).dropFirst(2)) }.joined(separator: " ")
        return "unrecognised data (first bytes: \(shown)\(head.count > 8 ? " ..." : ""))"
    }

    /// A file cut inside the PNG or GIF signature itself.
    private static func truncatedSignature(_ head: [UInt8]) -> String? {
        guard head.count >= 3 else { return nil }
        if head.count < PNGStructure.signature.count && PNGStructure.signature.starts(with: head) {
            return "PNG truncated in its signature"
        }
        if head.count < 6 && (GIFStructure.signature87.starts(with: head) || GIFStructure.signature89.starts(with: head)) {
            return "GIF truncated in its header"
        }
        return nil
    }

    private static func binaryFormat(_ head: [UInt8]) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let expected = Array(text.utf8)
            return head.count >= offset + expected.count && Array(head[offset ..< offset + expected.count]) == expected
        }
        if at(0, "RIFF") && at(8, "WEBP") { return "WebP image" }
        if at(0, "RIFF") { return "RIFF data (not WebP)" }
        if at(4, "ftyp") { return isoMedia(head) }
        if head.starts(with: [0x1F, 0x8B]) { return "gzip data" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF image" }
        if at(0, "BM") && head.count >= 14 && head[6 ..< 10].allSatisfy({ $0 == 0 }) { return "BMP image" }
        if at(0, "%PDF-") { return "PDF document" }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) { return "JPEG XL image" }
        if at(0, "8BPS") { return "Photoshop document" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "ZIP archive" }
        if head.starts(with: [0x00, 0x00, 0x01, 0x00]) && head.count >= 6 && head[4] != 0 { return "ICO icon" }
        return nil
    }

    /// An ISO base media file (`ftyp` box): HEIC/HEIF or AVIF by its brands, else a video or other media.
    private static func isoMedia(_ head: [UInt8]) -> String {
        guard head.count >= 12 else { return "ISO media file (truncated ftyp box)" }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let major = brand(head, at: 8)
        var compatible: [String] = []
        var offset = 16
        while offset + 4 <= min(boxSize, head.count) {
            compatible.append(brand(head, at: offset))
            offset += 4
        }
        let avif: Set = ["avif", "avis"]
        let heif: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if avif.contains(major) { return "AVIF image" }
        if heif.contains(major) { return "HEIC/HEIF image" }
        if compatible.contains(where: avif.contains) { return "AVIF image" }
        if compatible.contains(where: heif.contains) { return "HEIC/HEIF image" }
        return "ISO media file (brand '\(major)')"
    }

    /// A four-character brand, with anything unprintable shown as `?`.
    private static func brand(_ head: [UInt8], at offset: Int) -> String {
        String(decoding: head[offset ..< offset + 4].map { (0x20 ... 0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }

    /// HTML, SVG or other XML, after an optional UTF-8 byte-order mark and white space.
    private static func markup(_ head: [UInt8]) -> String? {
        var start = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < head.count && isWhiteSpace(head[start]) { start += 1 }
        let text = head[start...].map { (0x41 ... 0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard text.first == 0x3C else { return nil }  // "<"
        func startsWith(_ prefix: String) -> Bool { text.starts(with: Array(prefix.utf8)) }
        func contains(_ needle: String) -> Bool {
            let needle = Array(needle.utf8)
            guard text.count >= needle.count else { return false }
            return (0 ... text.count - needle.count).contains { text[$0 ..< $0 + needle.count].elementsEqual(needle) }
        }
        if startsWith("<!doctype html") || startsWith("<html") { return "HTML document" }
        if contains("<svg") { return "SVG document" }
        if contains("<html") || startsWith("<head") || startsWith("<body") { return "HTML document" }
        if startsWith("<?xml") { return "XML document" }
        return nil
    }

    /// Printable UTF-8 with ordinary white space, allowing the last character to be cut off.
    private static func isText(_ head: [UInt8]) -> Bool {
        guard head.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || isWhiteSpace($0) }) else { return false }
        for cut in 0 ... min(3, head.count - 1) where String(validating: head.dropLast(cut), as: UTF8.self) != nil {
            return true
        }
        return false
    }

    private static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
