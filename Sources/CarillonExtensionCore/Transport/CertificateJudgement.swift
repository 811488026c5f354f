internal import COpenSSL

/// How a server's certificate chain is judged: OpenSSL's verification (trust, validity at an instant,
/// purpose), then App Transport Security's rules (``CertificateRules``) on the verified chain. The
/// handshake's callback runs it on the live store; ``init(chain:host:at:extraCAFile:)`` runs it on a
/// recorded chain, offline, with the same trust (the system's store plus the extra CA file).
package struct CertificateJudgement: Sendable, Equatable {
    /// What the judgement found.
    package enum Verdict: Sendable, Equatable {
        /// Trusted, valid at the instant, and within every ATS rule.
        case accepted
        /// OpenSSL refused it: its words ("certificate has expired", "unable to get local issuer certificate").
        case untrusted(String)
        /// Verified, but it breaks this ATS rule (``CertificateRules/violation(chain:host:leafNamesHost:)``'s words).
        case brokenRule(String)
        /// Certificate `index` (0 is the leaf) is not DER, or there is none (`index` -1).
        case unreadable(index: Int)
    }

    /// The verdict.
    package var verdict: Verdict

    /// Judges `chain` (the certificates the server sent, leaf first, DER) for `host` as a handshake at
    /// `at` (seconds since 1970) would have, trusting the system's store, `extraCAFile` (PEM) and
    /// `extraTrust` (DER certificates: the trust a recording's run had).
    package init(chain: [[UInt8]], host: String, at: Int64, extraCAFile: String? = nil, extraTrust: [[UInt8]] = []) {
        let question = Question(chain: chain, host: host, at: at, extraCAFile: extraCAFile, extraTrust: extraTrust)
        if let known = CertificateJudgement.remembered(question) {
            self.init(verdict: known)
            return
        }
        self.init(judging: question)
        CertificateJudgement.remember(verdict, for: question)
    }

    private init(verdict: Verdict) {
        self.verdict = verdict
    }

    /// The judgement itself, made with OpenSSL.
    private init(judging question: Question) {
        let (chain, host, at) = (question.chain, question.host, question.at)
        let (extraCAFile, extraTrust) = (question.extraCAFile, question.extraTrust)
        var bad: Int32 = -1
        let trust = OfflineTrust.store(extraCAFile: extraCAFile, recorded: extraTrust)
        let store = Self.withPointers(chain) { ders, lengths in
            carillon_offline_store(ders, lengths, Int32(chain.count), trust, at, &bad)
        }
        guard let store else {
            verdict = .unreadable(index: Int(bad))
            return
        }
        defer { carillon_offline_store_free(store) }
        let judged = CertificateJudgement.judge(store, host: host)
        if judged.verified != 1 {
            verdict = .untrusted(String(cString: carillon_verify_error(store)))
        } else if let rule = judged.rule {
            verdict = .brokenRule(rule)
        } else {
            verdict = .accepted
        }
    }

    /// The DER buffers as the C arrays of pointers and lengths `carillon_offline_store` takes.
    private static func withPointers<T>(
        _ chain: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>) -> T
    ) -> T {
        let buffers = chain.map { der -> UnsafeMutablePointer<UInt8> in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(der.count, 1))
            copy.initialize(from: der, count: der.count)
            return copy
        }
        defer { for (buffer, der) in zip(buffers, chain) { buffer.deinitialize(count: der.count).deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
        let lengths = chain.map(\.count)
        return pointers.withUnsafeBufferPointer { p in lengths.withUnsafeBufferPointer { l in body(p.baseAddress!, l.baseAddress!) } }
    }

    /// OpenSSL's verification of `store` (`X509_verify_cert`: 1 verified), then, when verified, the
    /// first ATS rule the verified chain breaks for `host`.
    static func judge(_ store: OpaquePointer, host: String) -> (verified: Int32, rule: String?) {
        let verified = carillon_verify_chain(store)
        guard verified == 1 else { return (verified, nil) }
        var chain: [CertificateRules.Facts] = []
        var facts = carillon_cert_facts()
        for index in 0..<carillon_chain_count(store) where carillon_chain_facts(store, index, &facts) == 1 {
            chain.append(
                CertificateRules.Facts(
                    keyType: facts.key_type == 1 ? .rsa : facts.key_type == 2 ? .ec : .other,
                    keyBits: Int(facts.key_bits),
                    signatureDigest: facts.signature_digest.map { String(cString: $0) } ?? "",
                    selfSigned: facts.self_signed != 0,
                    notBefore: facts.not_before, notAfter: facts.not_after,
                    hasExtendedKeyUsage: facts.has_extended_key_usage != 0, serverAuth: facts.server_auth != 0))
        }
        let namesHost = carillon_leaf_names_host(store, host) == 1
        return (verified, CertificateRules.violation(chain: chain, host: host, leafNamesHost: namesHost))
    }
}
