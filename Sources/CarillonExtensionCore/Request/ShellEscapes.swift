/// The backslash escapes of bash's `$'…'` quoting (bash(1), "QUOTING"), decoded to bytes.
enum ShellEscapes {
    /// Decodes the escape whose letter is at `index` (just after the backslash): the bytes it stands for
    /// and how many bytes of the input it used. An escape bash does not know keeps its backslash.
    static func decode(_ bytes: [UInt8], at index: Int) -> (bytes: [UInt8], used: Int) {
        let letter = bytes[index]
        switch letter {
        case UInt8(ascii: "a"): return ([0x07], 1)
        case UInt8(ascii: "b"): return ([0x08], 1)
        case UInt8(ascii: "e"), UInt8(ascii: "E"): return ([0x1B], 1)
        case UInt8(ascii: "f"): return ([0x0C], 1)
        case UInt8(ascii: "n"): return ([0x0A], 1)
        case UInt8(ascii: "r"): return ([0x0D], 1)
        case UInt8(ascii: "t"): return ([0x09], 1)
        case UInt8(ascii: "v"): return ([0x0B], 1)
        case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "?"): return ([letter], 1)
        case UInt8(ascii: "x"):
            let (value, digits) = number(bytes, from: index + 1, radix: 16, maximumDigits: 2)
            return digits == 0 ? ([UInt8(ascii: "\\"), letter], 1) : ([UInt8(value)], 1 + digits)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let (value, digits) = number(bytes, from: index + 1, radix: 16, maximumDigits: letter == UInt8(ascii: "u") ? 4 : 8)
            guard digits > 0 else { return ([UInt8(ascii: "\\"), letter], 1) }
            let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)) ?? "\u{FFFD}"
            return (Array(String(Character(scalar)).utf8), 1 + digits)
        case UInt8(ascii: "c"):
            guard index + 1 < bytes.count else { return ([UInt8(ascii: "\\"), letter], 1) }
            return ([bytes[index + 1] & 0x1F], 2)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            // \nnn: one to three octal digits (a leading 0 counts as one of them).
            let (value, digits) = number(bytes, from: index, radix: 8, maximumDigits: 3)
            return ([UInt8(truncatingIfNeeded: value)], digits)
        default:
            return ([UInt8(ascii: "\\"), letter], 1)
        }
    }

    /// Up to `maximumDigits` digits of `radix` from `start`: their value and how many there were.
    private static func number(_ bytes: [UInt8], from start: Int, radix: Int, maximumDigits: Int) -> (value: Int, digits: Int) {
        var value = 0
        var digits = 0
        while digits < maximumDigits, start + digits < bytes.count, let digit = digitValue(bytes[start + digits]), digit < radix {
            value = value * radix + digit
            digits += 1
        }
        return (value, digits)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}
