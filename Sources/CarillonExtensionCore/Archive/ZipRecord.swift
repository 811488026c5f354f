/// Little-endian fields of a zip record in memory: every read is within a length the caller checked
/// first (``has(_:at:)``).
struct ZipRecord {
    let bytes: [UInt8]
    let base: Int

    init(_ bytes: [UInt8], at base: Int = 0) {
        self.bytes = bytes
        self.base = base
    }

    /// Whether `count` bytes from `offset` (relative to the record's start) are there.
    func has(_ count: Int, at offset: Int = 0) -> Bool {
        count >= 0 && offset >= 0 && base + offset <= bytes.count && count <= bytes.count - (base + offset)
    }

    func u16(_ offset: Int) -> UInt16 { UInt16(bytes[base + offset]) | UInt16(bytes[base + offset + 1]) << 8 }

    func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }

    func u64(_ offset: Int) -> UInt64 { UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32 }

    /// `count` bytes from `offset`.
    func slice(_ offset: Int, _ count: Int) -> [UInt8] { Array(bytes[(base + offset)..<(base + offset + count)]) }
}
