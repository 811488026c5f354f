/// Every check of SPEC §11 on a built app, as pure functions of the app as read (``AppBundle``) and the
/// instant profiles are judged at: the same app gives the same findings whatever form it came in.
package enum AppChecks {
    /// The findings, check by check, target by target.
    package static func run(_ bundle: AppBundle, at instant: Timestamp) -> [AppFinding] {
        serviceExtension(bundle) + bundleIdentifierPrefix(bundle) + minimumOS(bundle) + signed(bundle) + profile(bundle)
            + profileExpiry(bundle, at: instant) + apsEnvironment(bundle) + appGroupInfo(bundle) + appGroupEntitlements(bundle)
            + appGroupProfiles(bundle) + transportSecurity(bundle) + contentExtensions(bundle) + notificationEntitlements(bundle)
    }

    /// How a finding names a target: its bundle identifier, or its bundle name when it has none.
    static func name(_ target: AppTarget) -> String { target.bundleIdentifier ?? target.bundleName }

    /// A value quoted for a detail, or "none".
    static func quoted(_ value: String?) -> String { value.map { Quoting.single($0) } ?? "none" }

    /// The app and each service extension: the targets the hand-off of receipts runs between.
    static func handOffTargets(_ bundle: AppBundle) -> [AppTarget] { [bundle.app] + bundle.serviceExtensions }
}
