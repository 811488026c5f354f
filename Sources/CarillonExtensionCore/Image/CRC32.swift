import CCRC32

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320, reflected). A PNG's CRCs cover every byte
/// of it, so this is on the hot path of every PNG download: `CCRC32` folds 64 bytes at a time with
/// carry-less multiplication where the CPU has it and leaves the rest to zlib's `crc32_z`
/// (TestAssets/Bench/README.md, "Measurements behind the code").
enum CRC32 {
    /// Advances a running (pre-inverted) CRC over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return carillon_crc32_update(crc, base, bytes.count)
    }

    /// zlib's `crc32_z` alone, over the same running value: what ``update(_:_:)`` must always equal.
    static func updateWithZlib(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return carillon_crc32_update_zlib(crc, base, bytes.count)
    }

    /// Whether this CPU takes the carry-less multiplication path.
    static var usesCarrylessMultiplication: Bool { carillon_crc32_uses_clmul() != 0 }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
    }
}
