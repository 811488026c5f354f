/// RFC 4648 base64, both ways, in one place: encoding with padding (a recording's bodies, chains and
/// heads; how output carries bytes that JSON text cannot, such as a file name that is not UTF-8), and
/// bounded decoding (a HAR body, a recorded chain, PEM): the text is measured before anything is
/// decoded, so a body that cannot fit under a cap costs no memory.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64 with padding (the standard alphabet).
    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                output.append(position <= count ? alphabet[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The longest base64 text (alphabet characters and padding, whitespace not counted) whose bytes
    /// can fit in `cap`: ⌈cap/3⌉·4, plus 4 characters of slack for a padded last group.
    package static func maximumTextLength(forCap cap: Int) -> Int {
        let groups = cap / 3 + (cap % 3 == 0 ? 0 : 1)
        let (product, overflow) = groups.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max - 4 : product + 4
    }

    /// Whether `text` is longer than any base64 text whose bytes fit in `cap` (``maximumTextLength(forCap:)``):
    /// whitespace only shortens a text, so one whose bytes are within it is, uncounted; only a longer one is
    /// counted (``significantLength(_:)``).
    package static func exceeds(_ text: String, cap: Int) -> Bool {
        let maximum = maximumTextLength(forCap: cap)
        return text.utf8.count > maximum && significantLength(text) > maximum
    }

    /// How many characters of `text` count toward its decoded length (whitespace and line breaks do
    /// not: some exporters wrap base64 at 76 columns).
    package static func significantLength(_ text: String) -> Int {
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
            // One spare byte past the most the text can hold: a group's three bytes are stored as a word.
            [UInt8](unsafeUninitializedCapacity: bytes.count / 4 * 3 + 4) { buffer, initialized in
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
        sextets.withUnsafeBufferPointer { table in pairs.withUnsafeBufferPointer { decode(bytes, into: buffer, table: table, pairs: $0) } }
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>,
        pairs: UnsafeBufferPointer<UInt16>
    ) -> Result<Int, Invalid> {
        guard let input = bytes.baseAddress, let output = buffer.baseAddress, let sextet = table.baseAddress,
            let pair = pairs.baseAddress
        else { return .success(0) }
        let end = bytes.count
        var written = 0
        var group: UInt32 = 0
        var count = 0
        var padding = 0
        var position = 0
        while position < end {
            if count == 0 && padding == 0 {
                // Whole groups of four alphabet characters, three bytes each, while nothing else comes: a
                // body is nearly all of them. Any other character (255 in the table) falls to the path below.
                // Two characters at a time by a table of pairs, the group's three bytes stored as one word
                // (its fourth byte is the next group's, or the buffer's spare one).
                while end - position >= 4 {
                    let word = UInt32(littleEndian: UnsafeRawPointer(input + position).loadUnaligned(as: UInt32.self))
                    let high = pair[Int(word & 0xFFFF)]
                    let low = pair[Int(word >> 16)]
                    guard (high | low) & 0xF000 == 0 else { break }
                    let value = UInt32(high) << 12 | UInt32(low)
                    UnsafeMutableRawPointer(output + written).storeBytes(of: (value << 8).bigEndian, as: UInt32.self)
                    written += 3
                    position += 4
                }
                if position == end { break }
            }
            let byte = input[position]
            let value = sextet[Int(byte)]
            // The character's number, counted from 1 as a reader counts.
            position += 1
            let place = position
            if padding == 0, value < 64 {
                group = group << 6 | UInt32(value)
                count += 1
                if count == 4 {
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    written += 3
                    group = 0
                    count = 0
                }
                continue
            }
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
            output[written] = UInt8(truncatingIfNeeded: group >> 4)
            written += 1
        case 3:
            output[written] = UInt8(truncatingIfNeeded: group >> 10)
            output[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
            written += 2
        default: return .failure(Invalid(message: "a truncated last group (\(count) character)"))
        }
        return .success(written)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Each pair of characters (the first in the low byte) as its twelve bits, or 0xFFFF when either is
    /// not in the alphabets: a group of four is two look-ups.
    private static let pairs: [UInt16] = {
        var table = [UInt16](repeating: 0xFFFF, count: 65_536)
        for first in 0..<256 where sextets[first] < 64 {
            for second in 0..<256 where sextets[second] < 64 {
                table[first | second << 8] = UInt16(sextets[first]) << 6 | UInt16(sextets[second])
            }
        }
        return table
    }()

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
