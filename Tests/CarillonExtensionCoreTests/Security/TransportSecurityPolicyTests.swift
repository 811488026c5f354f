import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// App Transport Security per host, from tables: which exception applies to which host (names, one
/// subdomain level, addresses and ranges since iOS 17), what an Info.plist's keys make of the rules, the
/// overrides, and the note an insecure-HTTP exception gets.
@Suite struct TransportSecurityPolicyTests {
    static let tls11 = TransportSecurity(minimumTLS: .v1_1)
    static let noFS = TransportSecurity(requiresForwardSecrecy: false)
    static let policy = TransportSecurityPolicy(exceptions: [
        .init(domain: "example.com", includesSubdomains: true, security: tls11),
        .init(domain: "a.example.com", security: noFS),
        .init(domain: "exact.net", security: noFS),
        .init(domain: "192.168.42.0/24", security: tls11),
        .init(domain: "2001:db8:12::/48", security: noFS),
        .init(domain: "127.0.0.1", includesSubdomains: true, security: noFS),
    ])

    @Test(arguments: [
        ("example.com", tls11), ("EXAMPLE.com", tls11), ("img.example.com", tls11), ("a.example.com", noFS),
        ("b.a.example.com", TransportSecurity.appTransportSecurity), ("notexample.com", .appTransportSecurity),
        ("exact.net", noFS), ("sub.exact.net", .appTransportSecurity), ("example.com.", .appTransportSecurity),
        ("192.168.42.63", tls11), ("192.168.43.1", .appTransportSecurity), ("2001:db8:12:ffff::1", noFS),
        ("2001:db8:13::1", .appTransportSecurity), ("127.0.0.1", noFS), ("127.0.0.2", .appTransportSecurity),
        ("::ffff:127.0.0.1", .appTransportSecurity), ("localhost", .appTransportSecurity),
    ])
    func eachHostGetsItsRules(host: String, expected: TransportSecurity) {
        #expect(Self.policy.security(forHost: host) == expected, "\(host)")
    }

    @Test(arguments: [
        ("1.2.3.4", [1, 2, 3, 4] as [UInt8]?), ("256.1.1.1", nil), ("1.2.3", nil), ("::1", [UInt8](repeating: 0, count: 15) + [1]),
        ("2001:db8::1:0:0:1", [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]),
        ("::ffff:1.2.3.4", [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 1, 2, 3, 4]), ("1::2::3", nil), ("example.com", nil),
        ("12345::", nil), ("1:2:3:4:5:6:7:8", [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]), ("1:2:3:4:5:6:7:8:9", nil),
    ])
    func parsesAddresses(text: String, bytes: [UInt8]?) {
        #expect(IPAddressRange.address(text) == bytes)
    }

    @Test func anInfoPlistsKeysMakeThePolicy() {
        let plist = PropertyListValue.dictionary([
            ("NSAllowsArbitraryLoads", .bool(true)),
            (
                "NSExceptionDomains",
                .dictionary([
                    (
                        "cdn.example.com",
                        .dictionary([("NSExceptionMinimumTLSVersion", .string("TLSv1.0")), ("NSIncludesSubdomains", .bool(true))])
                    ),
                    (
                        "old.example.com",
                        .dictionary([
                            ("NSExceptionRequiresForwardSecrecy", .bool(false)), ("NSExceptionAllowsInsecureHTTPLoads", .bool(true)),
                        ])
                    ),
                    ("odd.example.com", .dictionary([("NSExceptionMinimumTLSVersion", .string("SSLv3"))])),
                ])
            ),
        ])
        let ats = AppTransportSecurity(plist)
        let policy = ats.policy
        #expect(policy.standard == AppTransportSecurity.arbitraryLoads)
        #expect(policy.security(forHost: "x.cdn.example.com") == TransportSecurity(minimumTLS: .v1_0))
        #expect(policy.security(forHost: "old.example.com") == TransportSecurity(requiresForwardSecrecy: false))
        // A domain listed keeps ATS's defaults for what it does not say, whatever NSAllowsArbitraryLoads says.
        #expect(policy.security(forHost: "odd.example.com") == .appTransportSecurity)
        #expect(ats.problems == ["NSExceptionDomains 'odd.example.com': NSExceptionMinimumTLSVersion 'SSLv3' is not TLSv1.0 to TLSv1.3"])
        // A narrower key makes NSAllowsArbitraryLoads ignored (iOS 10 and later).
        let narrowed = AppTransportSecurity(
            .dictionary([("NSAllowsArbitraryLoads", .bool(true)), ("NSAllowsLocalNetworking", .bool(true))]))
        #expect(narrowed.arbitraryLoadsIgnored && narrowed.policy.standard == .appTransportSecurity)
        #expect(AppTransportSecurity(nil).policy == TransportSecurityPolicy())
    }

    @Test func overridesApplyToEveryHost() {
        let overridden = Self.policy.overriding(minimumTLS: .v1_3, requiresForwardSecrecy: nil)
        #expect(overridden.security(forHost: "img.example.com").minimumTLS == .v1_3)
        #expect(overridden.security(forHost: "a.example.com") == TransportSecurity(minimumTLS: .v1_3, requiresForwardSecrecy: false))
        #expect(overridden.standard.minimumTLS == .v1_3)
    }

    @Test(arguments: [
        (["http://127.0.0.1:8080/a.png"], true), (["https://img.test/x", "http://[::1]/y"], true), (["https://user@127.0.0.1/x"], true),
        (["https://img.test/x"], false), (["not a url"], false),
    ])
    func anInsecureHTTPExceptionIsNoted(urls: [String], noted: Bool) {
        let policy = TransportSecurityPolicy(exceptions: [
            .init(domain: "127.0.0.1", allowsInsecureHTTPLoads: true), .init(domain: "::1", allowsInsecureHTTPLoads: true),
        ])
        let note = policy.insecureHTTPLoadsNote(urls: urls)
        #expect((note != nil) == noted)
        if let note { #expect(note.contains("changes nothing here") && note.contains("HTTPS only")) }
    }

    @Test func noExceptionAllowingInsecureHTTPLoadsNotesNothing() {
        let urls = ["http://127.0.0.1:8080/a.png", "https://img.test/x"]
        #expect(TransportSecurityPolicy().insecureHTTPLoadsNote(urls: urls) == nil)
        let strict = TransportSecurityPolicy(exceptions: [
            .init(domain: "127.0.0.1"), .init(domain: "img.test", allowsInsecureHTTPLoads: false),
        ])
        #expect(strict.insecureHTTPLoadsNote(urls: urls) == nil)
        var one = strict
        one.exceptions[1].allowsInsecureHTTPLoads = true
        #expect(one.insecureHTTPLoadsNote(urls: urls) != nil)
    }

    @Test(arguments: [
        ("NotificationService", "42", "NotificationService/42 "), ("My Service", "1.0 (2)", "My%20Service/1.0%20%282%29 "),
        ("Ñotify", "1", "%C3%91otify/1 "), ("a/b", "1", "a%2Fb/1 "),
    ])
    func theUserAgentIsBuiltFromTheBundle(executable: String, version: String, starts: String) {
        let agent = RequestHeaders.userAgent(executable: executable, bundleVersion: version)
        #expect(agent.hasPrefix(starts) && agent.hasSuffix(DeviceVersions.cfNetworkAndDarwin), "\(agent)")
    }
}
