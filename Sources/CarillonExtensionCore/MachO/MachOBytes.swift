/// Big- or little-endian fields of bytes read from a Mach-O file; every read is within a length the
/// caller checked first (``has(_:at:)``).
struct MachOBytes {
    let bytes: [UInt8]
    let bigEndian: Bool

    init(_ bytes: [UInt8], bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    /// Whether `count` bytes from `offset` are there.
    func has(_ count: Int, at offset: Int) -> Bool { count >= 0 && offset >= 0 && offset <= bytes.count && count <= bytes.count - offset }

    func u32(_ offset: Int) -> UInt32 {
        let (a, b, c, d) = (UInt32(bytes[offset]), UInt32(bytes[offset + 1]), UInt32(bytes[offset + 2]), UInt32(bytes[offset + 3]))
        return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }

    func u64(_ offset: Int) -> UInt64 {
        let (first, second) = (UInt64(u32(offset)), UInt64(u32(offset + 4)))
        return bigEndian ? first << 32 | second : second << 32 | first
    }
}
