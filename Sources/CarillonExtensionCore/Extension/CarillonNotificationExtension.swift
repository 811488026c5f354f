/// The product's extension helper in the shape of its iOS API (`CarillonNotificationExtension` in the
/// SDK's README): keep the value `didReceive` returns, pass it to `serviceExtensionTimeWillExpire`.
///
/// ```swift
/// helper = CarillonNotificationExtension.didReceive(request, configuration: configuration) { content in
///     deliver(content)
/// }
/// // later, if the system says time is up:
/// CarillonNotificationExtension.serviceExtensionTimeWillExpire(helper)
/// ```
public final class CarillonNotificationExtension: Sendable {
    /// The service doing the work; its result carries the reason code as well as the content.
    public let service: NotificationService

    private init(service: NotificationService) {
        self.service = service
    }

    /// Starts processing a request; `contentHandler` receives the content to display, exactly once.
    public static func didReceive(
        _ request: NotificationRequest, configuration: ExtensionConfiguration, pool: DownloaderPool? = nil,
        withContentHandler contentHandler: @escaping @Sendable (NotificationContent) -> Void
    ) -> CarillonNotificationExtension {
        let pool = pool ?? DownloaderPool(configuration: configuration.download)
        let service = NotificationService.didReceive(request, configuration: configuration, pool: pool) { result in
            contentHandler(result.content)
        }
        return CarillonNotificationExtension(service: service)
    }

    /// Forwards `serviceExtensionTimeWillExpire()`: the original content is delivered at once unless
    /// the attachment was already complete. A nil helper is ignored.
    public static func serviceExtensionTimeWillExpire(_ helper: CarillonNotificationExtension?) {
        helper?.service.timeWillExpire()
    }
}
