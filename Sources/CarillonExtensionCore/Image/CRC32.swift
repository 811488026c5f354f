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
