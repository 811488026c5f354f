/// What the rules of where an attached image shows (SPEC §12) need to know of the app itself, which no
/// request or payload carries: read from the built app (SPEC §11), or stated one by one. `nil` is
/// unknown, and a rule that needs an unknown fact answers `unknown`, never a guess.
package struct PresentationFacts: Sendable, Equatable {
    /// The categories a content extension claims (`UNNotificationExtensionCategory`), each with its
    /// `UNNotificationExtensionDefaultContentHidden`; `nil` when no one said.
    package var contentExtensionCategories: [String: Bool]?
    /// `com.apple.developer.usernotifications.time-sensitive` in the app's signed entitlements.
    package var timeSensitiveEntitlement: Bool?
    /// `com.apple.developer.usernotifications.critical-alerts` in the app's signed entitlements.
    package var criticalAlertsEntitlement: Bool?
    /// `com.apple.developer.usernotifications.communication` in the app's signed entitlements.
    package var communicationNotificationsEntitlement: Bool?
    /// The app's bundle identifier: the `apns-topic` its pushes must name.
    package var bundleIdentifier: String?
    /// The app's signed `aps-environment` (`development` or `production`): the APNs host it answers on.
    package var apsEnvironment: String?

    /// Nothing known: what a run without the app has.
    package static let unknown = PresentationFacts()

    package init(
        contentExtensionCategories: [String: Bool]? = nil, timeSensitiveEntitlement: Bool? = nil,
        criticalAlertsEntitlement: Bool? = nil, communicationNotificationsEntitlement: Bool? = nil,
        bundleIdentifier: String? = nil, apsEnvironment: String? = nil
    ) {
        self.contentExtensionCategories = contentExtensionCategories
        self.timeSensitiveEntitlement = timeSensitiveEntitlement
        self.criticalAlertsEntitlement = criticalAlertsEntitlement
        self.communicationNotificationsEntitlement = communicationNotificationsEntitlement
        self.bundleIdentifier = bundleIdentifier
        self.apsEnvironment = apsEnvironment
    }
}
