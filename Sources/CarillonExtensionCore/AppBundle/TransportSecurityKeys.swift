/// The keys of `NSAppTransportSecurity` and of an `NSExceptionDomains` entry, each with the type Apple's
/// Information Property List reference gives it, and what a value of another type is said to be. A key
/// not in the table (the legacy `NSTemporaryException…` spellings) is read as absent, and not a problem.
package enum TransportSecurityKeys {
    /// A type the reference documents for a key.
    package enum ValueType: String, Sendable {
        case boolean = "Boolean"
        case string = "String"
        case dictionary = "Dictionary"

        /// Whether `value` is of this type.
        func holds(_ value: PropertyListValue) -> Bool {
            switch (self, value) {
            case (.boolean, .bool), (.string, .string), (.dictionary, .dictionary): return true
            default: return false
            }
        }
    }

    /// `NSAppTransportSecurity`'s own keys.
    package static let topLevel: [String: ValueType] = [
        "NSAllowsArbitraryLoads": .boolean, "NSAllowsArbitraryLoadsForMedia": .boolean,
        "NSAllowsArbitraryLoadsInWebContent": .boolean, "NSAllowsLocalNetworking": .boolean, "NSExceptionDomains": .dictionary,
        "NSPinnedDomains": .dictionary,
    ]

    /// An `NSExceptionDomains` entry's keys.
    package static let domain: [String: ValueType] = [
        "NSIncludesSubdomains": .boolean, "NSExceptionAllowsInsecureHTTPLoads": .boolean, "NSExceptionMinimumTLSVersion": .string,
        "NSExceptionRequiresForwardSecrecy": .boolean, "NSRequiresCertificateTransparency": .boolean,
    ]

    /// The value of each key of `table` in `members` that is not of its documented type, said as a problem
    /// (`where` prefixes it: `NSExceptionDomains 'example.com': `); such a value is read as absent.
    package static func mistyped(_ members: [(key: String, value: PropertyListValue)], _ table: [String: ValueType], where prefix: String)
        -> [String]
    {
        members.compactMap { key, value in
            guard let type = table[key], !type.holds(value) else { return nil }
            return "\(prefix)\(key) is \(described(value)), where Apple documents a \(type.rawValue): read as absent"
        }
    }

    /// Why `name` cannot be an `NSExceptionDomains` key, or nil when it can: a domain name (letters, digits,
    /// `-` and `_` in dot-separated labels, no port, scheme, path or space) or, since iOS 17, an IP address
    /// or a CIDR range.
    package static func domainProblem(_ name: String) -> String? {
        if IPAddressRange(name) != nil { return nil }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
                || byte == 0x5F || byte == 0x2E
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let emptyLabel = labels.dropLast().contains { $0.isEmpty } || name.isEmpty
        guard !allowed || emptyLabel else { return nil }
        let port = name.contains(":")
        return "NSExceptionDomains \(Quoting.single(name)) is not a domain name or an IP address"
            + (port ? " (a port is never part of one)" : "") + ": the exception matches no host"
    }

    /// `value` for a message: a string or a Boolean with its value, another type by its name.
    package static func described(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let text): return "the string \(Quoting.single(text))"
        case .bool(let flag): return "the Boolean \(flag ? "YES" : "NO")"
        case .integer, .array: return "an \(value.typeName)"
        default: return "a \(value.typeName)"
        }
    }
}
