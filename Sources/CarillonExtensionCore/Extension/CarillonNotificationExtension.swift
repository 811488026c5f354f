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
    /// An extension keeps one ``ExtensionRuntime`` for its life and passes it here.
    public static func didReceive(
        _ request: NotificationRequest, runtime: ExtensionRuntime,
        withContentHandler contentHandler: @escaping @Sendable (NotificationContent) -> Void
    ) -> CarillonNotificationExtension {
        let service = runtime.didReceive(request) { result in contentHandler(result.content) }
        return CarillonNotificationExtension(service: service)
    }

    /// ``didReceive(_:runtime:withContentHandler:)`` with a runtime of its own, as the SDK's README shows
    /// it (nothing is reused from one notification to the next).
    public static func didReceive(
        _ request: NotificationRequest, configuration: ExtensionConfiguration,
        withContentHandler contentHandler: @escaping @Sendable (NotificationContent) -> Void
    ) -> CarillonNotificationExtension {
        didReceive(request, runtime: ExtensionRuntime(configuration: configuration), withContentHandler: contentHandler)
    }

    /// Forwards `serviceExtensionTimeWillExpire()`: the original content is delivered at once unless
    /// the attachment was already complete. A nil helper is ignored.
    public static func serviceExtensionTimeWillExpire(_ helper: CarillonNotificationExtension?) {
        helper?.service.timeWillExpire()
    }
}
