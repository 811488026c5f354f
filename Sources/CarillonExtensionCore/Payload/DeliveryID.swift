/// A Carillon delivery identifier: a UUID in its canonical 8-4-4-4-12 hexadecimal form, held lowercased.
public struct DeliveryID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The lowercased canonical text, e.g. `01937b21-0000-7000-8000-000000000000`.
    public let rawValue: String

    /// Accepts exactly the canonical form, in any letter case; nil for anything else (braces, URNs,
    /// missing dashes, surrounding spaces).
    public init?(_ text: String) {
        guard text.utf8.count == 36 else { return nil }
        // Built in place (no array for the input and none for the output): every payload and every
        // receipt a drain reads has one.
        var valid = true
        var text = text
        let lowered = text.withUTF8 { input in
            String(unsafeUninitializedCapacity: 36) { output in
                for (index, byte) in input.enumerated() {
                    switch index {
                    case 8, 13, 18, 23:
                        guard byte == UInt8(ascii: "-") else {
                            valid = false
                            return 0
                        }
                        output[index] = byte
                    default:
                        switch byte {
                        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): output[index] = byte
                        case UInt8(ascii: "A")...UInt8(ascii: "F"): output[index] = byte + 0x20
                        default:
                            valid = false
                            return 0
                        }
                    }
                }
                return 36
            }
        }
        guard valid else { return nil }
        rawValue = lowered
    }

    public var description: String { rawValue }

    public static func < (lhs: DeliveryID, rhs: DeliveryID) -> Bool { lhs.rawValue < rhs.rawValue }
}
