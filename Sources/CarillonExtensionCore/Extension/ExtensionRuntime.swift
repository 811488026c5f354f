/// The extension process's long-lived part: its configuration and the downloaders it reuses across
/// notifications, created once (as an extension keeps them between `didReceive` calls) and the one
/// way in for callers, which no longer pass a pool to every entry point.
///
/// ```swift
/// let runtime = ExtensionRuntime(configuration: configuration)
/// let service = runtime.didReceive(request) { result in deliver(result.content) }
/// // or, on the caller's thread, with time-will-expire 30 s after delivery:
/// let result = runtime.process(request, timeWillExpireAfter: .seconds(30))
/// ```
public final class ExtensionRuntime: Sendable {
    /// Where files go and how images are downloaded, fixed for the runtime's life.
    public let configuration: ExtensionConfiguration
    /// Downloaders kept warm between notifications (connections and TLS sessions reused).
    let pool: any ImageTransport
    /// One download per distinct image across the notifications of this runtime, when it shares them.
    @_spi(Tooling) public let imageSource: SharedImageSource?

    /// A runtime for `configuration`; keep it for the extension's life, so that connections are reused.
    ///
    /// - Parameters:
    ///   - configuration: where the extension keeps its files and how it downloads.
    ///   - sharesImages: whether notifications naming the same image share one download and its verdict
    ///     (a campaign check); an extension downloads each notification's image itself.
    public convenience init(configuration: ExtensionConfiguration, sharesImages: Bool = false) {
        self.init(configuration: configuration, pool: DownloaderPool(configuration: configuration.download), sharesImages: sharesImages)
    }

    /// The one place a runtime starts: the run's files (stale partial downloads swept, or the run's own
    /// attachments directory registered for removal), then its downloads, from `pool`.
    private init(configuration: ExtensionConfiguration, pool: any ImageTransport, sharesImages: Bool) {
        self.configuration = configuration
        self.pool = pool
        imageSource = sharesImages ? SharedImageSource() : nil
        if configuration.keepsAttachments {
            // A process killed mid-download (iOS ends an extension over its memory limit with SIGKILL)
            // leaves its partial file; an hour on, no download can own it.
            StaleFiles.removeStalePartialDownloads(in: configuration.attachmentsDirectory)
        } else {
            AttachmentStore.registerRunDirectory(configuration.attachmentsDirectory)
        }
    }

    /// Ends the run, once every notification is delivered and its attachments read: stops the shared
    /// downloads still in flight and removes the images kept for sharing; when attachments last only
    /// for the run (``ExtensionConfiguration/keepsAttachments`` false), removes the attachments
    /// directory with every file in it. Notifications processed afterwards get no attachment.
    @_spi(Tooling) public func finish() {
        imageSource?.finish()
        if !configuration.keepsAttachments { AttachmentStore.removeRunDirectory(configuration.attachmentsDirectory) }
    }

    /// Ends this runtime as ``finish()`` does, but leaves an attachments directory that lasts only for
    /// the run in place, emptied of its files (``AttachmentStore/emptyRunDirectory(_:)``), for the next
    /// runtime of the same run; ``AttachmentStore/removeRunDirectory(_:)`` removes it at the run's end.
    @_spi(Tooling) public func finishKeepingRunDirectory() {
        imageSource?.finish()
        if !configuration.keepsAttachments { AttachmentStore.emptyRunDirectory(configuration.attachmentsDirectory) }
    }

    /// A runtime whose downloads are answered by `transport` (a recording) instead of the network:
    /// the same extension, the same decisions, no socket.
    package convenience init(
        configuration: ExtensionConfiguration, replaying transport: RecordedTransport, sharesImages: Bool = false
    ) {
        self.init(configuration: configuration, pool: transport, sharesImages: sharesImages)
    }

    /// A runtime whose downloads are also recorded by `transport` (see ``RecordingTransport``).
    package convenience init(
        configuration: ExtensionConfiguration, recording transport: RecordingTransport, sharesImages: Bool = false
    ) {
        self.init(configuration: configuration, pool: transport, sharesImages: sharesImages)
    }

    /// `UNNotificationServiceExtension.didReceive(_:withContentHandler:)`: see
    /// `NotificationService.didReceive(_:configuration:pool:completion:)`.
    @discardableResult
    public func didReceive(
        _ request: NotificationRequest, completion: @escaping @Sendable (ServiceResult) -> Void
    ) -> NotificationService {
        let policy = configuration.download.transportSecurityPolicy
        return NotificationService.didReceive(request, configuration: configuration, pool: pool, source: imageSource) { result in
            completion(result.notingInsecureHTTPLoads(policy))
        }
    }

    /// One notification run to its end on the calling thread: see
    /// `NotificationService.process(_:configuration:pool:timeWillExpireAfter:)`.
    public func process(_ request: NotificationRequest, timeWillExpireAfter delay: Duration) -> ServiceResult {
        NotificationService.process(
            request, configuration: configuration, pool: pool, source: imageSource, timeWillExpireAfter: delay
        ).notingInsecureHTTPLoads(configuration.download.transportSecurityPolicy)
    }
}
