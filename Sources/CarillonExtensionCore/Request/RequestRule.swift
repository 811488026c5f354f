/// One rule of SPEC §12's decisions — APNs' verdict, whether the extension runs, where the image
/// shows — with the document it rests on. `Documentation/Requests.md` lists them all, generated from
/// ``all``; every verdict names the rule that decided it.
package struct RequestRule: Sendable, Equatable, Hashable {
    /// A stable name (`apns.collapse-id`), for tests and for the reference.
    package var id: String
    /// What the rule says.
    package var statement: String
    package var source: Source

    /// The document a rule rests on.
    package struct Source: Sendable, Equatable, Hashable {
        package var title: String
        package var url: String
        /// True when the rule rests on one developer's report rather than the vendor's own documents.
        package var isObservation = false
    }
}

extension RequestRule.Source {
    static let appleResponses = Self(
        title: "Apple: Handling notification responses from APNs",
        url: "https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns")
    static let appleSending = Self(
        title: "Apple: Sending notification requests to APNs",
        url: "https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns")
    static let appleBackground = Self(
        title: "Apple: Pushing background updates to your App",
        url: "https://developer.apple.com/documentation/usernotifications/pushing-background-updates-to-your-app")
    static let appleModifying = Self(
        title: "Apple: Modifying content in newly delivered notifications",
        url: "https://developer.apple.com/documentation/usernotifications/modifying-content-in-newly-delivered-notifications")
    static let appleGenerating = Self(
        title: "Apple: Generating a remote notification",
        url: "https://developer.apple.com/documentation/usernotifications/generating-a-remote-notification")
    static let appleInterruption = Self(
        title: "Apple: UNNotificationInterruptionLevel",
        url: "https://developer.apple.com/documentation/usernotifications/unnotificationinterruptionlevel")
    static let appleAttachment = Self(
        title: "Apple: UNNotificationAttachment",
        url: "https://developer.apple.com/documentation/usernotifications/unnotificationattachment")
    static let appleAppearance = Self(
        title: "Apple: Customizing the appearance of notifications (UNNotificationExtensionDefaultContentHidden)",
        url: "https://developer.apple.com/documentation/usernotificationsui/customizing-the-appearance-of-notifications")
    static let applePreviews = Self(
        title: "Apple: iPhone User Guide, Change notification settings (Show Previews)",
        url: "https://support.apple.com/guide/iphone/change-notification-settings-iph7c3d96bab/ios")
    static let appleTimeSensitive = Self(
        title: "Apple: Time Sensitive Notifications entitlement",
        url: "https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.usernotifications.time-sensitive")
    static let appleForumTopic = Self(
        title: "Apple Developer Forums thread 791676: a topic without its push type's suffix answered DeviceTokenNotForTopic",
        url: "https://developer.apple.com/forums/thread/791676", isObservation: true)
    static let fcmMessage = Self(
        title: "Firebase: FCM HTTP v1 API, projects.messages (Message, ApnsConfig)",
        url: "https://firebase.google.com/docs/reference/fcm/rest/v1/projects.messages")
    static let fcmImage = Self(
        title: "Firebase: Send an image in the notification payload",
        url: "https://firebase.google.com/docs/cloud-messaging/ios/send-image")
    static let fcmMigrate = Self(
        title: "Firebase: Migrate from legacy FCM APIs to HTTP v1",
        url: "https://firebase.google.com/docs/cloud-messaging/migrate-v1")
    static let seed = Self(
        title: "Carillon iOS SDK README (seeds/000): Notification images",
        url: "")
}
