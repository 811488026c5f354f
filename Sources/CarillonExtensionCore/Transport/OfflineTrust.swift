internal import COpenSSL
import Synchronization

/// The trust an offline judgement of a recorded chain uses (``CertificateJudgement``): the system's
/// store plus an extra CA file, as the handshake has it, built once per CA file for the life of the
/// process and shared. Without an extra CA file it holds the system's bundle, whose every certificate
/// is parsed when it is built (about 140 on Debian: milliseconds), which a replay of many recordings
/// would otherwise pay for every chain.
enum OfflineTrust {
    /// An OpenSSL `X509_STORE`, never freed: it lives as long as the process. OpenSSL locks a store's
    /// lookups itself, so verifications on several threads may share it.
    private struct Store: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Per extra CA file ("" for none), the store built for it.
    private static let stores = Mutex<[String: Store]>([:])

    /// The store trusting the system's certificates and `extraCAFile`, or nil when it cannot be built
    /// (a CA file that cannot be read: nothing is kept, so a later call tries again).
    static func store(extraCAFile: String?) -> OpaquePointer? {
        stores.withLock { stores in
            let key = extraCAFile ?? ""
            if let built = stores[key] { return built.pointer }
            let built: OpaquePointer? =
                if let extraCAFile { FileName.withCString(extraCAFile) { carillon_trust_store($0) } } else { carillon_trust_store(nil) }
            guard let built else { return nil }
            stores[key] = Store(pointer: built)
            return built
        }
    }
}
