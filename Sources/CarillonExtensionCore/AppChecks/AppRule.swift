/// The checks a built app is held to (SPEC §11), each with its source: a sentence of Carillon's SDK
/// README (the seed) or the Apple document the rule comes from. Documentation/Doctor.md gathers them.
package enum AppRule: String, Sendable, CaseIterable {
    case serviceExtension = "service-extension"
    case bundleIdentifierPrefix = "bundle-id-prefix"
    case minimumOS = "minimum-os"
    case signed
    case profile
    case profileExpiry = "profile-expiry"
    case apsEnvironment = "aps-environment"
    case appGroupInfo = "app-group-info-plist"
    case appGroupEntitlements = "app-group-entitlements"
    case appGroupProfiles = "app-group-profiles"
    case transportSecurity = "ats-exceptions"
    case contentExtensions = "content-extensions"
    case notificationEntitlements = "notification-entitlements"

    /// Where the rule comes from.
    package var source: String {
        switch self {
        case .serviceExtension:
            return "Carillon SDK README: \"Add a Notification Service Extension target in Xcode.\" … \"If the app already has a"
                + " notification service extension, integrate the helper into that extension rather than embedding a second"
                + " one.\"; Apple, UNNotificationServiceExtension and NSExtensionPrincipalClass"
        case .bundleIdentifierPrefix:
            return "Apple, App Extension Programming Guide (an extension's bundle identifier starts with its containing app's);"
                + " Xcode and the installer refuse \"Embedded binary's bundle identifier is not prefixed with the parent app's"
                + " bundle identifier\"; Carillon SDK README: \"A bundle ID ending in .CarillonNotificationExtension is a"
                + " convention, not a requirement\""
        case .minimumOS:
            return "Apple, Information Property List: MinimumOSVersion (a bundle does not run below it)"
        case .signed:
            return "Apple, TN3126: Inside Code Signing: Hashes (the code directory is what a code signature is built on)"
        case .profile:
            return "Apple, TN3125: Inside Code Signing: Provisioning Profiles (application-identifier, wildcards); Carillon SDK"
                + " README: \"Include the extension bundle ID in signing provisioning profiles, including Fastlane match.\""
        case .profileExpiry:
            return "Apple, TN3125: Inside Code Signing: Provisioning Profiles (ExpirationDate)"
        case .apsEnvironment:
            return "Apple, Entitlements: aps-environment (development or production); Carillon SDK README: \"Enable the Push"
                + " Notifications capability on the app target.\""
        case .appGroupInfo:
            return "Carillon SDK README: \"enable the same App Groups capability on both app and extension targets … Add the"
                + " CarillonAppGroup string with that identifier to both targets' Info.plist files.\""
        case .appGroupEntitlements:
            return "Carillon SDK README: \"enable the same App Groups capability on both app and extension targets\"; Apple,"
                + " Entitlements: com.apple.security.application-groups"
        case .appGroupProfiles:
            return "Carillon SDK README: \"Both provisioning profiles must include the group.\""
        case .transportSecurity:
            return "Apple, Information Property List: NSAppTransportSecurity (\"for all apps and app extensions\"; each target's"
                + " own Info.plist) and NSExceptionDomains"
        case .contentExtensions:
            return "Apple, UNNotificationExtensionCategory and UNNotificationExtensionDefaultContentHidden (SPEC §12: where the"
                + " image shows)"
        case .notificationEntitlements:
            return "Apple, Entitlements: com.apple.developer.usernotifications.time-sensitive, …critical-alerts, …communication"
                + " (SPEC §12: interruption-level)"
        }
    }
}
