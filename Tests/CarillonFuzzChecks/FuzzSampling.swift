/// Which inputs get a fuzz target's expensive part (files on disk, a whole run of the tool), so that the
/// cheap checks run on every input at full speed and the expensive ones on a steady share of them.
///
/// The choice depends on the input's bytes alone (a hash), never on a counter or the clock: an input
/// saved by libFuzzer is chosen again when it is replayed, so every crash reproduces. A hash rather than
/// the length (`size % 8`), which the fuzzer changes on purpose and which would pick whole families of
/// inputs at once. The regression test runs every part for every saved input.
public enum FuzzSampling {
    /// True for about one input in `share` (every input when `share` is 1 or less).
    public static func oneIn(_ share: Int, _ bytes: [UInt8]) -> Bool {
        guard share > 1 else { return true }
        return hash(bytes) % UInt64(share) == 0
    }

    /// 64-bit FNV-1a, then a final mix so that the low bits depend on every byte.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        return value
    }
}
