/// RFC 4648 base64 decoding of a HAR body, bounded: the text is measured before anything is decoded,
/// so a body that cannot fit under the cap costs no memory. (A result bundle's attachments are read with it too.)
package enum HARBase64 {
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
        var text = text
        return text.withUTF8 { bytes in
            var count = bytes.count
            for byte in bytes where isWhitespace(byte) { count -= 1 }
            return count
        }
    }

    /// Why a text is not base64.
    package struct Invalid: Error, Equatable {
        /// What is wrong, in words.
        package var message: String
    }

    /// The bytes of `text` (padding optional, whitespace skipped).
    ///
    /// - Throws: ``Invalid`` naming the first character that is not base64, or a truncated group.
    package static func decode(_ text: String) throws(Invalid) -> [UInt8] {
        var text = text
        var failure: Invalid?
        // Over the text's UTF-8 in place, into a buffer of the most bytes it can hold (a whole text is
        // decoded under a cap checked before: HARBodyReading): a table look-up per character, and a
        // slower path only for whitespace, padding and errors.
        let output = text.withUTF8 { bytes in
            [UInt8](unsafeUninitializedCapacity: bytes.count / 4 * 3 + 3) { buffer, initialized in
                switch decode(bytes, into: buffer) {
                case .success(let count): initialized = count
                case .failure(let invalid): failure = invalid
                }
            }
        }
        if let failure { throw failure }
        return output
    }

    /// What ``decode(_:)`` does, from `bytes` into `buffer` (large enough): the count written.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Result<
        Int, Invalid
    > {
        sextets.withUnsafeBufferPointer { decode(bytes, into: buffer, table: $0) }
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>
    ) -> Result<Int, Invalid> {
        var written = 0
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        for position in bytes.indices {
            let byte = bytes[position]
            let value = table[Int(byte)]
            if padding == 0, value < 64 {
                group = group << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    buffer[written] = UInt8(truncatingIfNeeded: group >> 16)
                    buffer[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    buffer[written + 2] = UInt8(truncatingIfNeeded: group)
                    written += 3
                    group = 0
                    count = 0
                }
                continue
            }
            // The character's number, counted from 1 as a reader counts.
            let place = position + 1
            if isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                guard padding <= 2, count >= 2 else { return .failure(Invalid(message: "misplaced '=' at character \(place)")) }
                continue
            }
            guard padding == 0 else { return .failure(Invalid(message: "data after the '=' padding at character \(place)")) }
            return .failure(Invalid(message: "a character that is not base64 at character \(place)"))
        }
        switch count {
        case 0: break
        case 2:
            buffer[written] = UInt8(truncatingIfNeeded: group >> 4)
            written += 1
        case 3:
            buffer[written] = UInt8(truncatingIfNeeded: group >> 10)
            buffer[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
            written += 2
        default: return .failure(Invalid(message: "a truncated last group (\(count) character)"))
        }
        return .success(written)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Each byte's sextet, or 255 for a byte that is not in either alphabet: one look-up per character.
    private static let sextets: [UInt8] = (0...255).map { sextet(UInt8($0)) ?? 255 }

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
