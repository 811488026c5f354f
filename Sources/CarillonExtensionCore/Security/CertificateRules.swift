/// App Transport Security's certificate rules (Apple: "Requirements for trusted certificates in iOS 13
/// and macOS 10.15"), as a pure function of what the chain's certificates say.
enum CertificateRules {
    /// What the rules read in one certificate.
    struct Facts: Sendable, Equatable {
        enum KeyType: Sendable, Equatable {
            case rsa
            case ec
            case other
        }

        var keyType: KeyType
        var keyBits: Int
        /// OpenSSL's short name of the signature's digest ("SHA256"), or "" when it has none.
        var signatureDigest: String
        /// A trust anchor: its signature is its own and is not judged.
        var selfSigned: Bool
        /// Seconds since 1970.
        var notBefore: Int64
        var notAfter: Int64
        var hasExtendedKeyUsage: Bool
        var serverAuth: Bool
    }

    /// 2019-07-01T00:00:00Z: leaves issued since need serverAuth and at most 825 days of validity.
    static let newLeafRulesSince: Int64 = 1_561_939_200
    static let maximumValidityDays: Int64 = 825
    static let sha2Digests: Set<String> = ["SHA224", "SHA256", "SHA384", "SHA512", "SHA512-224", "SHA512-256"]

    /// The first rule the chain breaks, named, or nil when ATS accepts it.
    ///
    /// - Parameters:
    ///   - chain: the verified chain, leaf first.
    ///   - host: the host requested.
    ///   - leafNamesHost: whether the leaf's subjectAltName names `host` (the common name never counts).
    static func violation(chain: [Facts], host: String, leafNamesHost: Bool) -> String? {
        guard let leaf = chain.first else { return "certificate: the server sent none" }
        if !leafNamesHost {
            return "host name: \(Quoting.single(host)) is not in the leaf certificate's subjectAltName (the common name is never used)"
        }
        for (index, certificate) in chain.enumerated() {
            let which = describe(index, of: chain.count)
            switch certificate.keyType {
            case .rsa where certificate.keyBits < 2048:
                return "key size: \(which) has a \(certificate.keyBits)-bit RSA key; RSA keys need 2048 bits or more"
            case .ec where certificate.keyBits < 256:
                return "key size: \(which) has a \(certificate.keyBits)-bit ECC key; ECC keys need 256 bits or more"
            case .other:
                return "key type: \(which) has a key that is neither RSA nor ECC"
            default:
                break
            }
            if !certificate.selfSigned && !sha2Digests.contains(certificate.signatureDigest.uppercased()) {
                let digest = certificate.signatureDigest.isEmpty ? "no digest" : certificate.signatureDigest
                return "signature: \(which) is signed with \(digest); certificates must be signed with SHA-2"
            }
        }
        if leaf.notBefore >= newLeafRulesSince {
            if !leaf.serverAuth {
                let has = leaf.hasExtendedKeyUsage ? "an extendedKeyUsage without serverAuth" : "no extendedKeyUsage"
                return "extended key usage: the leaf certificate has \(has); leaves issued since 2019-07-01 need serverAuth"
            }
            let seconds = leaf.notAfter - leaf.notBefore
            if seconds > maximumValidityDays * 86_400 {
                return
                    "validity: the leaf certificate is valid for \(seconds / 86_400) days; leaves issued since 2019-07-01 may be valid for 825 days at most"
            }
        }
        return nil
    }

    private static func describe(_ index: Int, of count: Int) -> String {
        if index == 0 { return "the leaf certificate" }
        if index == count - 1 { return "the root certificate" }
        return "intermediate certificate \(index)"
    }
}
