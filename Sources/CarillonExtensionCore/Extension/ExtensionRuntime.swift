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
    public init(configuration: ExtensionConfiguration, sharesImages: Bool = false) {
        self.configuration = configuration
        pool = DownloaderPool(configuration: configuration.download)
        imageSource = sharesImages ? SharedImageSource() : nil
    }

    /// A runtime whose downloads are answered by `transport` (a recording) instead of the network:
    /// the same extension, the same decisions, no socket.
    @_spi(Tooling) public init(configuration: ExtensionConfiguration, replaying transport: RecordedTransport, sharesImages: Bool = false) {
        self.configuration = configuration
        pool = transport
        imageSource = sharesImages ? SharedImageSource() : nil
    }

    /// `UNNotificationServiceExtension.didReceive(_:withContentHandler:)`: see
    /// `NotificationService.didReceive(_:configuration:pool:completion:)`.
    @discardableResult
    public func didReceive(
        _ request: NotificationRequest, completion: @escaping @Sendable (ServiceResult) -> Void
    ) -> NotificationService {
        NotificationService.didReceive(request, configuration: configuration, pool: pool, source: imageSource, completion: completion)
    }

    /// One notification run to its end on the calling thread: see
    /// `NotificationService.process(_:configuration:pool:timeWillExpireAfter:)`.
    public func process(_ request: NotificationRequest, timeWillExpireAfter delay: Duration) -> ServiceResult {
        NotificationService.process(
            request, configuration: configuration, pool: pool, source: imageSource, timeWillExpireAfter: delay)
    }
}
