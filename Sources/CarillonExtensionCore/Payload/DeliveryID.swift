/// A Carillon delivery identifier: a UUID in its canonical 8-4-4-4-12 hexadecimal form, held lowercased.
public struct DeliveryID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The lowercased canonical text, e.g. `01937b21-0000-7000-8000-000000000000`.
    public let rawValue: String

    /// Accepts exactly the canonical form, in any letter case; nil for anything else (braces, URNs,
    /// missing dashes, surrounding spaces).
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var lowered: [UInt8] = []
        lowered.reserveCapacity(36)
        for (index, byte) in utf8.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return nil }
                lowered.append(byte)
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lowered.append(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered.append(byte + 0x20)
                default: return nil
                }
            }
        }
        rawValue = String(decoding: lowered, as: UTF8.self)
    }

    public var description: String { rawValue }

    public static func < (lhs: DeliveryID, rhs: DeliveryID) -> Bool { lhs.rawValue < rhs.rawValue }
}
