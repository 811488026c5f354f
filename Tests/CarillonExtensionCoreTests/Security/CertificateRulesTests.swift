import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// App Transport Security's certificate rules, as a table of chains.
@Suite struct CertificateRulesTests {
    typealias Facts = CertificateRules.Facts

    static let day: Int64 = 86_400
    /// 2026-01-01, and 2019-06-30: either side of the 2019-07-01 rules.
    static let recent: Int64 = 1_767_225_600
    static let before2019July: Int64 = 1_561_852_800

    static func leaf(
        _ key: Facts.KeyType = .ec, bits: Int = 256, digest: String = "SHA256", issued: Int64 = recent, days: Int64 = 90,
        eku: Bool = true, serverAuth: Bool = true
    ) -> Facts {
        Facts(
            keyType: key, keyBits: bits, signatureDigest: digest, selfSigned: false, notBefore: issued,
            notAfter: issued + days * day, hasExtendedKeyUsage: eku, serverAuth: serverAuth)
    }

    static func ca(_ key: Facts.KeyType = .rsa, bits: Int = 4096, digest: String = "SHA256", root: Bool = true) -> Facts {
        Facts(
            keyType: key, keyBits: bits, signatureDigest: digest, selfSigned: root, notBefore: 0,
            notAfter: recent + 3650 * day, hasExtendedKeyUsage: false, serverAuth: false)
    }

    @Test(
        arguments: [
            ([leaf(), ca()], true, nil),
            ([leaf(.rsa, bits: 2048), ca(root: false), ca()], true, nil),
            ([leaf(days: 825), ca()], true, nil),
            ([leaf(digest: "SHA384"), ca(.ec, bits: 384, digest: "SHA1")], true, nil),
            // Leaves issued before 2019-07-01 keep the old rules: no EKU, ten years.
            ([leaf(issued: before2019July, days: 3650, eku: false, serverAuth: false), ca()], true, nil),
            (
                [leaf(), ca()], false,
                "host name: '127.0.0.1' is not in the leaf certificate's subjectAltName (the common name is never used)"
            ),
            (
                [leaf(.rsa, bits: 1024), ca()], true,
                "key size: the leaf certificate has a 1024-bit RSA key; RSA keys need 2048 bits or more"
            ),
            (
                [leaf(), ca(bits: 1024, root: false), ca()], true,
                "key size: intermediate certificate 1 has a 1024-bit RSA key; RSA keys need 2048 bits or more"
            ),
            (
                [leaf(.ec, bits: 224), ca()], true,
                "key size: the leaf certificate has a 224-bit ECC key; ECC keys need 256 bits or more"
            ),
            ([leaf(.other, bits: 253), ca()], true, "key type: the leaf certificate has a key that is neither RSA nor ECC"),
            (
                [leaf(digest: "SHA1"), ca()], true,
                "signature: the leaf certificate is signed with SHA1; certificates must be signed with SHA-2"
            ),
            (
                [leaf(), ca(digest: "SHA1", root: false), ca()], true,
                "signature: intermediate certificate 1 is signed with SHA1; certificates must be signed with SHA-2"
            ),
            (
                [leaf(eku: false, serverAuth: false), ca()], true,
                "extended key usage: the leaf certificate has no extendedKeyUsage; leaves issued since 2019-07-01 need serverAuth"
            ),
            (
                [leaf(serverAuth: false), ca()], true,
                "extended key usage: the leaf certificate has an extendedKeyUsage without serverAuth; leaves issued since 2019-07-01 need serverAuth"
            ),
            (
                [leaf(days: 826), ca()], true,
                "validity: the leaf certificate is valid for 826 days; leaves issued since 2019-07-01 may be valid for 825 days at most"
            ),
            (
                [leaf(days: 3650), ca()], true,
                "validity: the leaf certificate is valid for 3650 days; leaves issued since 2019-07-01 may be valid for 825 days at most"
            ),
            ([] as [Facts], true, "certificate: the server sent none"),
        ] as [([Facts], Bool, String?)])
    func judgesTheChain(chain: [Facts], namesHost: Bool, violation: String?) {
        #expect(CertificateRules.violation(chain: chain, host: "127.0.0.1", leafNamesHost: namesHost) == violation)
    }
}
