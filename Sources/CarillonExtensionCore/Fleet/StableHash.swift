/// A 64-bit hash that is the same in every process, on every machine and in every release: FNV-1a over
/// the bytes, then MurmurHash3's 64-bit finaliser so that the low bits (what `% N` keeps) depend on
/// every byte. Swift's `Hasher` is seeded per process, so two shards would disagree on it; this never
/// changes, because shards of one campaign built at different times must agree.
package enum StableHash {
    /// The hash of `bytes`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        return finalised(value)
    }

    /// The hash of a string's UTF-8 bytes.
    package static func hash(_ text: String) -> UInt64 { hash(text.utf8) }

    /// MurmurHash3's `fmix64`.
    static func finalised(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value = value &* 0xc4ce_b9fe_1a85_ec53
        value ^= value >> 33
        return value
    }
}
