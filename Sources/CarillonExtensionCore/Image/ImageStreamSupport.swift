/// What a format's stream parser (``PNGStream``, ``JPEGStream``, ``GIFStream``) says after a piece.
enum StreamVerdict: Sendable {
    case pending
    case accepted(VerifiedImage)
    case refused(Outcome)
}

/// A few bytes a parser needs together (a chunk header, a length, a table segment) that may arrive
/// split across pieces.
struct Gathered {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    /// Takes bytes from `input` at `index` until `wanted` are held; true once they are.
    mutating func fill(_ wanted: Int, from input: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        let take = min(wanted - bytes.count, input.count - index)
        if take > 0 {
            // As one buffer (a copy), not as a slice (read a byte at a time).
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<index + take]))
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

/// The warnings of one image, in the order found, bounded so that a file damaged a million times
/// cannot grow them: past ``limit`` only a count is kept.
@_spi(Tooling) public struct ImageWarnings: Sendable {
    public static let limit = 8

    private var list: [String] = []
    private var dropped = 0

    mutating func add(_ warning: String) {
        if list.count < Self.limit - 1 { list.append(warning) } else { dropped += 1 }
    }

    /// The sentences, the last one saying how many more there were.
    var sentences: [String] {
        switch dropped {
        case 0: return list
        case 1: return list + ["and 1 more warning"]
        default: return list + ["and \(dropped) more warnings"]
        }
    }

    /// The accepted image of this geometry, with these warnings.
    func accepted(_ type: ImageType, width: Int, height: Int, frames: Int = 1) -> StreamVerdict {
        .accepted(image(type, width: width, height: height, frames: frames))
    }

    /// The image of this geometry, with these warnings.
    func image(_ type: ImageType, width: Int, height: Int, frames: Int = 1) -> VerifiedImage {
        VerifiedImage(type: type, width: width, height: height, frames: frames, warnings: sentences)
    }
}

/// An `unsupported-type` outcome with `detail`.
func refusal(_ detail: String) -> Outcome {
    Outcome(.unsupportedType, detail)
}

/// `0xAB`.
func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0" + digits : "0x" + digits
}

/// "1 image", "3 images".
func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
