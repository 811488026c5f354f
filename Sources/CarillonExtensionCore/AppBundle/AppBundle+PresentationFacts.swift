extension AppBundle {
    /// The entitlements behind `interruption-level` and communication notifications.
    package static let timeSensitiveEntitlement = "com.apple.developer.usernotifications.time-sensitive"
    package static let criticalAlertsEntitlement = "com.apple.developer.usernotifications.critical-alerts"
    package static let communicationEntitlement = "com.apple.developer.usernotifications.communication"

    /// What the app says of where an attached image shows (SPEC §12): the categories its content
    /// extensions claim, each with `UNNotificationExtensionDefaultContentHidden` (hidden if any extension
    /// claiming it hides it), the notification entitlements the app is signed with (unknown when it is
    /// not signed), its bundle identifier and its signed `aps-environment`.
    package var presentationFacts: PresentationFacts {
        var categories: [String: Bool] = [:]
        for content in contentExtensions {
            for category in content.contentCategories {
                categories[category] = (categories[category] ?? false) || content.defaultContentHidden
            }
        }
        let entitlements = app.signed ? app.entitlements ?? .dictionary([]) : nil
        let has = { (name: String) in entitlements.map { $0[name]?.bool == true } }
        return PresentationFacts(
            contentExtensionCategories: categories, timeSensitiveEntitlement: has(Self.timeSensitiveEntitlement),
            criticalAlertsEntitlement: has(Self.criticalAlertsEntitlement),
            communicationNotificationsEntitlement: has(Self.communicationEntitlement), bundleIdentifier: app.bundleIdentifier,
            apsEnvironment: app.apsEnvironment)
    }
}
