/// File names and paths are bytes; Swift strings are Unicode. This is the lossless mapping between the
/// two that every path-taking call in the library goes through.
///
/// A name's bytes become a `String` scalar by scalar where they are UTF-8. Each byte that is not part
/// of a valid UTF-8 character becomes the private-use scalar U+10FF00 + byte (U+10FF80 … U+10FFFF),
/// and so does each byte of a real U+10FF80 … U+10FFFF, so that the mapping is one-to-one both ways.
/// Such strings reach the file system as exactly the bytes they came from (``withCString(_:_:)``), and
/// people see them with ``Quoting/display(_:)``, where each such byte is written `\xNN`.
///
/// This is how a receipt named with bytes that are not UTF-8 is still listed, opened, set aside and
/// reported under its real name, and how a payload path given as an argument that is not UTF-8
/// still opens the file it names.
@_spi(Tooling) public enum FileName {
    private static let escapeBase: UInt32 = 0x10FF00
    private static let escapedRange: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The string for a name's or an argument's bytes (without a terminating NUL).
    public static func string<Bytes: Collection>(fromBytes bytes: Bytes) -> String where Bytes.Element == UInt8 {
        // The common case, plain UTF-8 with no byte that could start an escaped scalar, costs one check.
        if !bytes.contains(0xF4), let plain = String(validating: bytes, as: UTF8.self) { return plain }
        let array = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = array.makeIterator()
        var offset = 0
        func escape(_ byte: UInt8) { scalars.append(Unicode.Scalar(escapeBase + UInt32(byte))!) }
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = UTF8.decode(encoded)
                if escapedRange.contains(scalar.value) {
                    for byte in array[offset..<offset + encoded.count] { escape(byte) }
                } else {
                    scalars.append(scalar)
                }
                offset += encoded.count
            case .error(let length):
                for byte in array[offset..<offset + length] { escape(byte) }
                offset += length
            case .emptyInput:
                return String(scalars)
            }
        }
    }

    /// The bytes a string made by ``string(fromBytes:)`` came from; a plain string's UTF-8.
    public static func bytes(_ text: String) -> [UInt8] {
        guard hasEscapes(text) else { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if escapedRange.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - escapeBase))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Whether `text` holds a byte that is not UTF-8 (an escaped scalar).
    ///
    /// Every path-taking call asks this of its path, so it looks for the escapes' first byte with
    /// `memchr` rather than byte by byte (TestAssets/Bench/README.md, "Measurements behind the code").
    public static func hasEscapes(_ text: String) -> Bool {
        if let found = text.utf8.withContiguousStorageIfAvailable(hasEscapedScalar) { return found }
        return Array(text.utf8).withUnsafeBufferPointer(hasEscapedScalar)
    }

    /// Every escaped scalar is encoded F4 8F BE xx or F4 8F BF xx in the string's own UTF-8.
    private static func hasEscapedScalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset < bytes.count, let found = system_memchr(base + offset, 0xF4, bytes.count - offset) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if at + 2 < bytes.count && bytes[at + 1] == 0x8F && (bytes[at + 2] == 0xBE || bytes[at + 2] == 0xBF) { return true }
            offset = at + 1
        }
        return false
    }

    /// The byte a scalar made by ``string(fromBytes:)`` stands for, when it stands for one that is not
    /// UTF-8; nil for any other scalar. People see such a byte as `\xNN` (``Quoting/display(_:)``).
    static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        escapedRange.contains(scalar.value) ? UInt8(scalar.value - escapeBase) : nil
    }

    /// The name for a JSON string: exactly the name where it is UTF-8 (JSON escaping carries a newline,
    /// a tab or any other control character exactly), each byte that is not UTF-8 as `\xNN`. Output
    /// that shows a name so carries its exact bytes beside it when ``hasEscapes(_:)``.
    public static func jsonText(_ text: String) -> String {
        guard hasEscapes(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if let byte = escapedByte(scalar) {
                let digits = String(byte, radix: 16, uppercase: true)
                result += "\\x" + (digits.count == 1 ? "0" + digits : digits)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `name`'s bytes from `offset` on are `expected`, byte for byte (`memcmp`); `name` must
    /// hold them all.
    static func bytes(_ name: UnsafeBufferPointer<UInt8>, from offset: Int, equal expected: [UInt8]) -> Bool {
        expected.withUnsafeBytes { system_memcmp(name.baseAddress! + offset, $0.baseAddress!, expected.count) } == 0
    }

    /// Calls `body` with the path's exact bytes as a NUL-terminated C string.
    @inline(__always)
    public static func withCString<Result>(_ path: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard hasEscapes(path) else { return try path.withCString(body) }
        var bytes = FileName.bytes(path)
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
