/// RFC 4648 base64 decoding of a HAR body, bounded: the text is measured before anything is decoded,
/// so a body that cannot fit under the cap costs no memory.
enum HARBase64 {
    /// The longest base64 text (alphabet characters and padding, whitespace not counted) whose bytes
    /// can fit in `cap`: ⌈cap/3⌉·4, plus 4 characters of slack for a padded last group.
    static func maximumTextLength(forCap cap: Int) -> Int {
        let groups = cap / 3 + (cap % 3 == 0 ? 0 : 1)
        let (product, overflow) = groups.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max - 4 : product + 4
    }

    /// How many characters of `text` count toward its decoded length (whitespace and line breaks do
    /// not: some exporters wrap base64 at 76 columns).
    static func significantLength(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 where !isWhitespace(byte) { count += 1 }
        return count
    }

    /// Why a text is not base64.
    struct Invalid: Error, Equatable {
        /// What is wrong, in words.
        var message: String
    }

    /// The bytes of `text` (padding optional, whitespace skipped).
    ///
    /// - Throws: ``Invalid`` naming the first character that is not base64, or a truncated group.
    static func decode(_ text: String) throws(Invalid) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(significantLength(text) / 4 * 3 + 3)
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        var position = 0
        for byte in text.utf8 {
            position += 1
            if isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                guard padding <= 2, count >= 2 else { throw Invalid(message: "misplaced '=' at character \(position)") }
                continue
            }
            guard padding == 0 else { throw Invalid(message: "data after the '=' padding at character \(position)") }
            guard let value = sextet(byte) else {
                throw Invalid(message: "a character that is not base64 at character \(position)")
            }
            group = group << 6 | UInt32(value)
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        switch count {
        case 0: break
        case 2: output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default: throw Invalid(message: "a truncated last group (\(count) character)")
        }
        return output
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
