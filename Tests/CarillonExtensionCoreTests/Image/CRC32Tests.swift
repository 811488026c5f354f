import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The PNG verifier's CRC-32: the check value, the bit-at-a-time definition, and zlib's `crc32_z` for
/// every length, alignment and split by every method the CPU supports, so that none can ever differ.
@Suite struct CRC32Tests {
    @Test func matchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        // Past the folds' minimums, so that a fast path and zlib's tail both run.
        #expect(CRC32.checksum(Array(repeating: 0, count: 65)) == CRC32.zlibChecksum(Array(repeating: 0, count: 65)))
        #expect(CRC32.checksum(Array(repeating: 7, count: 300)) == CRC32.zlibChecksum(Array(repeating: 7, count: 300)))
    }

    /// `CRC32` is the bit-at-a-time definition's for every length, start alignment and split into
    /// pieces (the running CRC carried across them, as a PNG chunk's is).
    @Test func matchesTheBitwiseDefinition() {
        func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            return crc ^ 0xFFFF_FFFF
        }
        var random = ImageFixtures.SplitMix64(seed: 0xC4C3_2000)
        let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for _ in 0..<300 {
            let start = random.next(below: 64)
            let end = start + random.next(below: bytes.count - start)
            let split = start + random.next(below: end - start + 1)
            let whole = bytes[start..<end].withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) } ^ 0xFFFF_FFFF
            let first = bytes[start..<split].withUnsafeBufferPointer { CRC32.update(0xFFFF_FFFF, $0) }
            let pieces = bytes[split..<end].withUnsafeBufferPointer { CRC32.update(first, $0) } ^ 0xFFFF_FFFF
            #expect(whole == bitwise(bytes[start..<end]), "bytes \(start)..<\(end)")
            #expect(pieces == whole, "bytes \(start)..<\(end) split at \(split)")
        }
    }

    /// The methods this CPU supports: zlib's and every faster one up to ``CRC32/fastest``.
    static let methods = Array(CRC32.Method.allCases.prefix { $0 != CRC32.fastest }) + [CRC32.fastest]

    /// Every length from 0 to 1,100 bytes (the 64- and 256-byte minimums of the folds, their 16-byte
    /// steps and every tail) at every start alignment 0 ..< 16, from a running value that is not the
    /// initial one: every method the CPU supports gives zlib's value.
    @Test(arguments: methods)
    func equalsZlibForEveryLengthAndAlignment(_ method: CRC32.Method) {
        var random = ImageFixtures.SplitMix64(seed: 0xC4C3_2001)
        let bytes = (0..<1200).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var differences: [String] = []
        bytes.withUnsafeBufferPointer { all in
            for start in 0..<16 {
                for count in 0...1100 {
                    let piece = UnsafeBufferPointer(rebasing: all[start..<(start + count)])
                    let running = UInt32(truncatingIfNeeded: random.next())
                    if CRC32.update(running, piece, by: method) != CRC32.update(running, piece, by: .zlib) {
                        differences.append("start \(start) count \(count)")
                    }
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }

    /// A 10 MiB body in the download's 100 KiB pieces, as a PNG download feeds it: the same as zlib.
    @Test(arguments: methods)
    func equalsZlibOverALargeBodyInPieces(_ method: CRC32.Method) {
        var random = ImageFixtures.SplitMix64(seed: 0xC4C3_2002)
        let bytes = (0..<(10 << 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var fast: UInt32 = 0xFFFF_FFFF
        var zlib: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: 100 * 1024) {
                let piece = UnsafeBufferPointer(rebasing: all[start..<min(start + 100 * 1024, all.count)])
                fast = CRC32.update(fast, piece, by: method)
                zlib = CRC32.update(zlib, piece, by: .zlib)
            }
        }
        #expect(fast == zlib)
    }

    /// The fastest method is the one the CPU's flags (/proc/cpuinfo) allow: VPCLMULQDQ with AVX2, else
    /// PCLMULQDQ with SSE4.1, else zlib.
    @Test func fastestMethodFollowsTheCPUFlags() throws {
        #if arch(x86_64)
            let cpuinfo = try String(decoding: FileSystem.readFile("/proc/cpuinfo", limit: 1 << 20), as: UTF8.self)
            let flags = Set(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ").map(String.init) ?? [])
            let expected: CRC32.Method =
                flags.isSuperset(of: ["vpclmulqdq", "avx2", "pclmulqdq", "sse4_1"])
                ? .wideCarrylessMultiply : flags.isSuperset(of: ["pclmulqdq", "sse4_1"]) ? .carrylessMultiply : .zlib
            #expect(CRC32.fastest == expected)
        #else
            #expect(CRC32.fastest == .zlib)
        #endif
    }
}

extension CRC32 {
    /// zlib's CRC-32 of `bytes`, the reference.
    static func zlibChecksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(0xFFFF_FFFF, $0, by: .zlib) } ^ 0xFFFF_FFFF
    }
}
