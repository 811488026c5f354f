internal import CCurl

/// A libcurl share handle: the TLS session cache and the DNS cache shared by every downloader of one
/// ``DownloaderPool``, so that concurrent downloads (a tool's concurrent workers, the iOS-shaped queue) resume
/// the TLS session one of them negotiated instead of each making a full handshake, as
/// curl's parallel transfers do.
///
/// The only owner of the `CURLSH` handle and of its locks. libcurl calls the lock and unlock callbacks
/// from whichever thread runs a transfer, one lock per kind of data (``ThreadLocks``: the lock is
/// taken in one callback and released in another, which `Mutex.withLock` cannot express).
///
/// What is shared, and what is not:
/// - `CURL_LOCK_DATA_SSL_SESSION`: a session is only resumed by libcurl for the same host name and
///   port *and* the same TLS settings (CA file, verification, protocol floor, cipher list are compared
///   before a cached session is used), and a pool's downloaders all have one ``DownloadConfiguration``.
///   A resumed session skips the certificate (there is none in the handshake): it was verified, with
///   the App Transport Security rules, by the full handshake that made it, for that host.
/// - `CURL_LOCK_DATA_DNS`: host-name lookups.
/// - Not `CURL_LOCK_DATA_CONNECT`: libcurl does not support sharing connections between concurrent
///   threads (CURLSHOPT_SHARE(3)); each downloader keeps its own connection cache in its multi handle.
///
/// Every downloader using the share holds a reference to it, so the handle is cleaned up only after
/// the last easy handle attached to it (`curl_share_cleanup` refuses a share still in use).
final class CurlShare: @unchecked Sendable {
    /// The handle, for `CURLOPT_SHARE` on an easy handle; nil when libcurl could not make one (the
    /// downloads then work unshared, as before).
    let handle: UnsafeMutableRawPointer?
    private let locks: ThreadLocks
    private static let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue)

    /// The kinds of data shared.
    static let sharedData: [curl_lock_data] = [CURL_LOCK_DATA_SSL_SESSION, CURL_LOCK_DATA_DNS]

    init() {
        _ = CurlSecureSetup.globalInitialization
        locks = ThreadLocks(count: CurlShare.lockCount)
        handle = CurlShare.makeHandle(locks: locks.pointer)
    }

    /// A share handle with the locks installed and ``sharedData`` shared, or nil if libcurl refuses any
    /// of it.
    private static func makeHandle(locks: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        guard let share = curl_share_init() else { return nil }
        var results = [
            carillon_share_setopt_pointer(share, CURLSHOPT_USERDATA, locks),
            carillon_share_setopt_lock(share) { _, data, _, userData in
                guard let userData, let index = CurlShare.lockIndex(data) else { return }
                ThreadLocks.lock(userData, at: index)
            },
            carillon_share_setopt_unlock(share) { _, data, userData in
                guard let userData, let index = CurlShare.lockIndex(data) else { return }
                ThreadLocks.unlock(userData, at: index)
            },
        ]
        for data in sharedData {
            results.append(carillon_share_setopt_long(share, CURLSHOPT_SHARE, Int(data.rawValue)))
        }
        guard results.allSatisfy({ $0 == CURLSHE_OK }) else {
            curl_share_cleanup(share)
            return nil
        }
        return share
    }

    /// The mutex for a kind of data; nil for a value outside libcurl's list.
    private static func lockIndex(_ data: curl_lock_data) -> Int? {
        let index = Int(data.rawValue)
        return index >= 0 && index < lockCount ? index : nil
    }

    deinit {
        if let handle { curl_share_cleanup(handle) }
    }
}
