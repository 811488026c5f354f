extension AppTarget {
    /// `CFBundleIdentifier`.
    package var bundleIdentifier: String? { info["CFBundleIdentifier"]?.string }
    /// `CFBundleVersion`.
    package var version: String? { info["CFBundleVersion"]?.string }
    /// `CFBundleShortVersionString`.
    package var shortVersion: String? { info["CFBundleShortVersionString"]?.string }
    /// `CFBundleExecutable`.
    package var executable: String? { info["CFBundleExecutable"]?.string }
    /// `MinimumOSVersion`.
    package var minimumOS: String? { info["MinimumOSVersion"]?.string }
    /// `CarillonAppGroup`: the App Group the Carillon SDK's receipts go through (the seed's setup).
    package var carillonAppGroup: String? { info["CarillonAppGroup"]?.string }
    /// `NSExtension.NSExtensionPointIdentifier`.
    package var extensionPoint: String? { info["NSExtension"]?["NSExtensionPointIdentifier"]?.string }
    /// `NSExtension.NSExtensionPrincipalClass`.
    package var principalClass: String? { info["NSExtension"]?["NSExtensionPrincipalClass"]?.string }
    /// `NSExtension.NSExtensionAttributes`.
    private var extensionAttributes: PropertyListValue? { info["NSExtension"]?["NSExtensionAttributes"] }
    /// A content extension's `UNNotificationExtensionCategory` (a string or an array of them).
    package var contentCategories: [String] { extensionAttributes?["UNNotificationExtensionCategory"]?.strings ?? [] }
    /// A content extension's `UNNotificationExtensionDefaultContentHidden` (default NO).
    package var defaultContentHidden: Bool { extensionAttributes?["UNNotificationExtensionDefaultContentHidden"]?.bool ?? false }
    /// The target's App Transport Security, as its Info.plist's `NSAppTransportSecurity` declares it.
    package var transportSecurity: AppTransportSecurity { AppTransportSecurity(info["NSAppTransportSecurity"]) }
    /// The signed `aps-environment`.
    package var apsEnvironment: String? { entitlements?["aps-environment"]?.string }
    /// The signed `com.apple.security.application-groups`.
    package var appGroups: [String] { entitlements?["com.apple.security.application-groups"]?.strings ?? [] }

    /// The version text `MinimumOSVersion` holds as numbers (`15.0` → [15, 0]); nil when it is not one.
    package static func versionNumbers(_ text: String?) -> [Int]? {
        guard let text, !text.isEmpty else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { part in part.allSatisfy(\.isNumber) ? Int(part) : nil }
        return numbers.count == parts.count ? numbers : nil
    }

    /// Whether version `a` is above `b`, component by component (a missing component is 0).
    package static func isVersion(_ a: [Int], above b: [Int]) -> Bool {
        for index in 0..<max(a.count, b.count) {
            let (x, y) = (index < a.count ? a[index] : 0, index < b.count ? b[index] : 0)
            if x != y { return x > y }
        }
        return false
    }
}
