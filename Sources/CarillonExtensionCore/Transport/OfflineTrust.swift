internal import COpenSSL
import Synchronization

/// The trust an offline judgement of a recorded chain uses (``CertificateJudgement``): the system's
/// store plus an extra CA file, as the handshake has it, plus the certificates a recording kept of the
/// trust its run had, built once per CA file and recorded certificates for the life of the process and
/// shared. Without an extra CA file it holds the system's bundle, whose every certificate
/// is parsed when it is built (about 140 on Debian: milliseconds), which a replay of many recordings
/// would otherwise pay for every chain.
enum OfflineTrust {
    /// An OpenSSL `X509_STORE`, never freed: it lives as long as the process. OpenSSL locks a store's
    /// lookups itself, so verifications on several threads may share it.
    private struct Store: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// What a store is built from: the extra CA file and the recorded certificates, compared as they are
    /// (no digest: hashing would cost more than the store's look-up saves).
    private struct Key: Hashable {
        var extraCAFile: String?
        var recorded: [[UInt8]]
    }

    /// Per extra CA file and recorded certificates, the store built for them.
    private static let stores = Mutex<[Key: Store]>([:])

    /// The store trusting the system's certificates, `extraCAFile` and `recorded` (DER certificates), or
    /// nil when it cannot be built (a CA file that cannot be read: nothing is kept, so a later call
    /// tries again). A recorded certificate that does not parse adds nothing.
    static func store(extraCAFile: String?, recorded: [[UInt8]] = []) -> OpaquePointer? {
        let key = Key(extraCAFile: extraCAFile, recorded: recorded)
        return stores.withLock { (stores: inout [Key: Store]) -> OpaquePointer? in
            if let built = stores[key] { return built.pointer }
            // With extra trust the bundle is replaced, as the live handshake's CA file replaces it (the
            // hashed directory stays): the same trust, and the bundle is not parsed.
            let bundle: Int32 = extraCAFile == nil && recorded.isEmpty ? 1 : 0
            let built: OpaquePointer? =
                if let extraCAFile {
                    FileName.withCString(extraCAFile) { carillon_trust_store($0, bundle) }
                } else {
                    carillon_trust_store(nil, bundle)
                }
            guard let built else { return nil }
            for certificate in recorded {
                _ = certificate.withUnsafeBufferPointer { (der: UnsafeBufferPointer<UInt8>) -> Int32 in
                    carillon_trust_store_add(built, der.baseAddress, der.count)
                }
            }
            stores[key] = Store(pointer: built)
            return built
        }
    }
}
