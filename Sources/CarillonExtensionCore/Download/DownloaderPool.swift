import Synchronization

/// Idle downloaders kept for reuse, so that consecutive and concurrent downloads reuse connections
/// and TLS sessions instead of opening new ones: one downloader per concurrently running download.
///
/// All of a pool's downloaders share one TLS session cache and DNS cache (``CurlShare``): a
/// downloader that opens a connection after another has made a full handshake with the same server
/// resumes that session. One pool has one ``DownloadConfiguration``, so a session is never resumed
/// under other trust settings (libcurl compares them too).
final class DownloaderPool: Sendable {
    let configuration: DownloadConfiguration
    private let idle = Mutex<[CurlDownloaderBox]>([])
    /// Every downloader of the pool holds it too, so it is freed after the last of their easy handles.
    private let share = CurlShare()

    /// Keeps each server's certificates and shares no TLS session (see ``CurlDownloader``'s `recording`).
    let recording: Bool

    /// A pool for `configuration`; `recording` keeps every full handshake's chain and resumes no session.
    init(configuration: DownloadConfiguration, recording: Bool = false) {
        self.configuration = configuration
        self.recording = recording
    }

    /// Runs `body` with a downloader no other thread is using.
    func withDownloader<T>(_ body: (CurlDownloader) -> T) throws(Outcome) -> T {
        let box: CurlDownloaderBox
        if let reused = idle.withLock({ $0.popLast() }) {
            box = reused
        } else {
            box = CurlDownloaderBox(try CurlDownloader(configuration: configuration, share: recording ? nil : share, recording: recording))
        }
        defer { idle.withLock { $0.append(box) } }
        return body(box.downloader)
    }
}

/// Lets a downloader cross threads while idle in the pool. Only one thread uses it at a time: the pool
/// hands it out to one caller and takes it back after.
final class CurlDownloaderBox: @unchecked Sendable {
    let downloader: CurlDownloader
    init(_ downloader: CurlDownloader) { self.downloader = downloader }
}
