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

    /// Per extra CA file ("" for none) and digest of the recorded certificates, the store built for them.
    private static let stores = Mutex<[String: Store]>([:])

    /// The store trusting the system's certificates, `extraCAFile` and `recorded` (DER certificates), or
    /// nil when it cannot be built (a CA file that cannot be read: nothing is kept, so a later call
    /// tries again). A recorded certificate that does not parse adds nothing.
    static func store(extraCAFile: String?, recorded: [[UInt8]] = []) -> OpaquePointer? {
        var named: [UInt8] = []
        for certificate in recorded { named += Array(String(certificate.count).utf8) + [0x3A] + certificate }
        let key = (extraCAFile ?? "") + (recorded.isEmpty ? "" : "\u{0}" + SHA256.hex(named))
        return stores.withLock { (stores: inout [String: Store]) -> OpaquePointer? in
            if let built = stores[key] { return built.pointer }
            let built: OpaquePointer? =
                if let extraCAFile { FileName.withCString(extraCAFile) { carillon_trust_store($0) } } else { carillon_trust_store(nil) }
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
