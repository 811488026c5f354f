@_spi(Tooling) import CarillonExtensionCore

/// Deterministic delivery ids for tests, the one maker: the last group is `number` in hexadecimal, e.g.
/// 42 → `01937b21-0000-7000-8000-00000000002a` (the golden fixtures were made with it).
public enum TestDeliveryID {
    public static func text(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return "01937b21-0000-7000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    public static func make(_ number: Int) -> DeliveryID {
        guard let id = DeliveryID(text(number)) else { preconditionFailure("no delivery id for \(number)") }
        return id
    }
}
