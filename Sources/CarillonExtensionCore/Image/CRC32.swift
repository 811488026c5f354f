internal import CCRC32

/// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320, reflected). A PNG's CRCs cover every byte
/// of it, so this is on the hot path of every PNG download: `CCRC32` folds long runs with carry-less
/// multiplication where the CPU has it and leaves the rest to zlib's `crc32_z`
/// (TestAssets/Bench/README.md, "Measurements behind the code").
enum CRC32 {
    /// How the CRC is computed; every method gives the same value.
    enum Method: CaseIterable {
        case zlib
        /// PCLMULQDQ, 16 bytes a lane.
        case carrylessMultiply
        /// VPCLMULQDQ with AVX2, 32 bytes a lane.
        case wideCarrylessMultiply

        var c: carillon_crc32_method {
            switch self {
            case .zlib: CARILLON_CRC32_ZLIB
            case .carrylessMultiply: CARILLON_CRC32_CLMUL
            case .wideCarrylessMultiply: CARILLON_CRC32_WIDE_CLMUL
            }
        }
    }

    /// The fastest method this CPU supports, which ``update(_:_:)`` uses.
    static var fastest: Method {
        Method.allCases.first { $0.c == carillon_crc32_fastest_method() } ?? .zlib
    }

    /// Advances a running (pre-inverted) CRC over `bytes`.
    static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return carillon_crc32_update(crc, base, bytes.count)
    }

    /// ``update(_:_:)`` by `method` (by the fastest one when the CPU lacks it): for the tests.
    static func update(_ crc: UInt32, _ bytes: UnsafeBufferPointer<UInt8>, by method: Method) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return carillon_crc32_update_by(method.c, crc, base, bytes.count)
    }

    /// The CRC-32 of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
    }
}
