import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `NSAppTransportSecurity` read as Apple's Information Property List reference types each key, from a
/// table: a value of another type is a problem and read as absent, and an `NSExceptionDomains` key that
/// cannot name a host (a port, a space) is a problem.
@Suite struct TransportSecurityKeysTests {
    static let cases: [(name: String, ats: PropertyListValue, problems: [String], arbitraryLoads: Bool)] = [
        ("a Boolean", .dictionary([("NSAllowsArbitraryLoads", .bool(true))]), [], true),
        (
            "the string YES", .dictionary([("NSAllowsArbitraryLoads", .string("YES"))]),
            ["NSAllowsArbitraryLoads is the string 'YES', where Apple documents a Boolean: read as absent"], false
        ),
        (
            "an integer", .dictionary([("NSAllowsArbitraryLoads", .integer(1))]),
            ["NSAllowsArbitraryLoads is an integer, where Apple documents a Boolean: read as absent"], false
        ),
        (
            "a narrower key as a string",
            .dictionary([("NSAllowsArbitraryLoads", .bool(true)), ("NSAllowsLocalNetworking", .string("YES"))]),
            ["NSAllowsLocalNetworking is the string 'YES', where Apple documents a Boolean: read as absent"], true
        ),
        (
            "domains as an array", .dictionary([("NSExceptionDomains", .array([]))]),
            ["NSExceptionDomains is an array, where Apple documents a Dictionary: read as absent"], false
        ),
        (
            "a port and a space",
            .dictionary([("NSExceptionDomains", .dictionary([("Bad Domain:443", .dictionary([("NSIncludesSubdomains", .bool(true))]))]))]),
            [
                "NSExceptionDomains 'Bad Domain:443' is not a domain name or an IP address (a port is never part of one): the exception matches no host"
            ],
            false
        ),
        (
            "a scheme", .dictionary([("NSExceptionDomains", .dictionary([("https://cdn.example.com", .dictionary([]))]))]),
            [
                "NSExceptionDomains 'https://cdn.example.com' is not a domain name or an IP address (a port is never part of one): the"
                    + " exception matches no host"
            ], false
        ),
        (
            "a domain's keys mistyped",
            .dictionary([
                (
                    "NSExceptionDomains",
                    .dictionary([
                        (
                            "cdn.example.com",
                            .dictionary([("NSIncludesSubdomains", .string("YES")), ("NSExceptionMinimumTLSVersion", .real(1.1))])
                        )
                    ])
                )
            ]),
            [
                "NSExceptionDomains 'cdn.example.com': NSIncludesSubdomains is the string 'YES', where Apple documents a Boolean: read as absent",
                "NSExceptionDomains 'cdn.example.com': NSExceptionMinimumTLSVersion is a real, where Apple documents a String: read as absent",
            ], false
        ),
        (
            "a domain that is a string", .dictionary([("NSExceptionDomains", .dictionary([("cdn.example.com", .string("TLSv1.1"))]))]),
            ["NSExceptionDomains 'cdn.example.com' is the string 'TLSv1.1', where Apple documents a Dictionary"], false
        ),
        (
            "names and addresses as documented",
            .dictionary([
                (
                    "NSExceptionDomains",
                    .dictionary([
                        ("cdn.example.com", .dictionary([])), ("my_host.example", .dictionary([])), ("192.168.42.0/24", .dictionary([])),
                        ("2001:db8::1", .dictionary([])), ("example.com.", .dictionary([])),
                    ])
                ), ("NSPinnedDomains", .dictionary([])), ("NSTemporaryExceptionAllowsInsecureHTTPLoads", .string("legacy")),
            ]), [], false
        ),
    ]

    @Test(arguments: cases.indices)
    func eachKeyIsReadAsAppleTypesIt(index: Int) {
        let (name, plist, problems, arbitraryLoads) = Self.cases[index]
        let ats = AppTransportSecurity(plist)
        #expect(ats.problems == problems, "\(name)")
        #expect(ats.allowsArbitraryLoads == arbitraryLoads, "\(name)")
    }

    /// A mistyped `NSIncludesSubdomains` is read as absent: the exception covers its domain only.
    @Test func aMistypedKeyIsReadAsAbsent() {
        let ats = AppTransportSecurity(
            .dictionary([
                (
                    "NSExceptionDomains",
                    .dictionary([
                        (
                            "cdn.example.com",
                            .dictionary([("NSIncludesSubdomains", .string("YES")), ("NSExceptionMinimumTLSVersion", .string("TLSv1.1"))])
                        )
                    ])
                )
            ]))
        #expect(ats.policy.security(forHost: "cdn.example.com").minimumTLS == .v1_1)
        #expect(ats.policy.security(forHost: "a.cdn.example.com") == .appTransportSecurity)
    }
}
