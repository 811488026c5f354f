import CZlib

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320, reflected), computed by the system zlib's
/// `crc32_z`, as libpng does. A PNG's CRCs cover every byte of it, so this is on the hot path of every
/// PNG download: zlib's is the fastest that was measured (TestAssets/Bench/README.md, "Measurements
/// behind the code").
enum CRC32 {
    /// Advances a running (pre-inverted) CRC over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        // zlib takes and returns the finished CRC (it inverts before and after); ours stays inverted.
        let finished = crc32_z(UInt(crc ^ 0xFFFF_FFFF), base, bytes.count)
        return UInt32(truncatingIfNeeded: finished) ^ 0xFFFF_FFFF
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
    }
}
