/// How the system shows a notification that arrives while the app is in the foreground: what
/// `willPresent` hands to the completion handler (`UNNotificationPresentationOptions`).
public enum PresentationOption: String, Sendable, Hashable, CaseIterable {
    /// Show a banner, list it in Notification Center, play its sound, update the badge (`UNNotificationPresentationOptions`).
    case banner, list, sound, badge

    /// What the SDK requests when the app has no `onReceived` handler: everything.
    public static let sdkDefault: [PresentationOption] = [.banner, .list, .sound, .badge]
}
