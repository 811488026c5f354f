/// An IPv4 or IPv6 address, or a CIDR range of them, as an `NSExceptionDomains` key can name one since
/// iOS 17 (`192.168.42.63`, `2001:db8:12::34`, `2001:db8:12::/48`): parsed by hand, compared as bytes.
struct IPAddressRange: Equatable {
    /// The address's bytes: 4 for IPv4, 16 for IPv6.
    var bytes: [UInt8]
    /// How many leading bits a member shares with it (the whole address when no `/` is written).
    var prefixLength: Int

    /// The range `text` names; nil when it is not an address or a range.
    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let address = Self.address(String(parts[0])) else { return nil }
        bytes = address
        if parts.count == 2 {
            guard let length = Int(parts[1]), parts[1].allSatisfy(\.isNumber), (0...(address.count * 8)).contains(length) else {
                return nil
            }
            prefixLength = length
        } else {
            prefixLength = address.count * 8
        }
    }

    /// Whether `address` (bytes of the same family) is in the range.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var left = prefixLength
        for (a, b) in zip(address, bytes) where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if a & mask != b & mask { return false }
            left -= 8
        }
        return true
    }

    /// The bytes of an IPv4 (dotted quad) or IPv6 address (`::` and a trailing dotted quad allowed,
    /// no zone); nil for anything else, a host name included.
    static func address(_ text: String) -> [UInt8]? {
        if let v4 = ipv4(Substring(text)) { return v4 }
        return text.contains(":") ? ipv6(text) : nil
    }

    private static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }), let value = UInt8(part) else {
                return nil
            }
            bytes.append(value)
        }
        return bytes
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        var halves = [Substring(text)]
        if let marker = text.firstRange(of: "::") {
            halves = [text[..<marker.lowerBound], text[marker.upperBound...]]
            guard halves[1].firstRange(of: "::") == nil else { return nil }
        }
        func groups(_ part: Substring) -> [UInt8]? {
            if part.isEmpty { return [] }
            var bytes: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(piece) {
                    bytes += v4
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
