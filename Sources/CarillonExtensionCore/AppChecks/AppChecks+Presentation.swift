extension AppChecks {
    /// The extension's own `NSAppTransportSecurity` is what its downloads obey: an exception the app
    /// declares and the extension does not is a warning naming the domain.
    static func transportSecurity(_ bundle: AppBundle) -> [AppFinding] {
        let app = bundle.app.transportSecurity
        return bundle.serviceExtensions.map { service in
            let own = service.transportSecurity
            var missing = app.exceptions.map(\.domain).filter { domain in !own.exceptions.contains { $0.domain == domain } }
                .map { "NSExceptionDomains \(Quoting.single($0))" }
            if app.allowsArbitraryLoads, !own.allowsArbitraryLoads { missing.append("NSAllowsArbitraryLoads") }
            guard missing.isEmpty, own.problems.isEmpty else {
                let notes =
                    (missing.isEmpty
                        ? []
                        : [
                            "the app's \(missing.joined(separator: ", ")) is not in the extension's Info.plist: exceptions do not reach an"
                                + " extension, whose downloads from there are held to ATS's defaults"
                        ]) + own.problems
                return AppFinding(.transportSecurity, .warn, target: name(service), notes.joined(separator: "; "))
            }
            let count = own.exceptions.count
            let arbitrary = own.allowsArbitraryLoads ? ", NSAllowsArbitraryLoads" : ""
            return AppFinding(
                .transportSecurity, .pass, target: name(service),
                "the extension's downloads obey its own NSAppTransportSecurity: \(count) exception domain\(count == 1 ? "" : "s")\(arbitrary)"
            )
        }
    }

    /// What each content extension claims: its categories and whether it hides the default content (a
    /// warning: in those categories an attached image shows only if the extension's view draws it).
    static func contentExtensions(_ bundle: AppBundle) -> [AppFinding] {
        let contents = bundle.contentExtensions
        guard !contents.isEmpty else {
            return [
                AppFinding(
                    .contentExtensions, .pass, target: name(bundle.app),
                    "no notification content extension: an attached image shows in the system's own views")
            ]
        }
        return contents.map { content in
            let categories = content.contentCategories
            guard !categories.isEmpty else {
                return AppFinding(
                    .contentExtensions, .warn, target: name(content),
                    "claims no UNNotificationExtensionCategory: iOS never shows it for any notification")
            }
            let hidden = content.defaultContentHidden
            return AppFinding(
                .contentExtensions, hidden ? .warn : .pass, target: name(content),
                "claims \(listed(categories)), UNNotificationExtensionDefaultContentHidden \(hidden ? "YES" : "NO"): in \(categories.count == 1 ? "that category" : "those categories")"
                    + " an image shows only in the extension's view\(hidden ? ", and not at all unless that view draws it" : "")")
        }
    }

    /// The notification entitlements the app is signed with.
    static func notificationEntitlements(_ bundle: AppBundle) -> [AppFinding] {
        let app = bundle.app
        guard app.signed else {
            return [AppFinding(.notificationEntitlements, .unknown, target: name(app), "the app is not signed: no entitlements to read")]
        }
        let names = [AppBundle.timeSensitiveEntitlement, AppBundle.criticalAlertsEntitlement, AppBundle.communicationEntitlement]
        let present = names.filter { app.entitlements?[$0]?.bool == true }
        let detail =
            present.isEmpty
            ? "none of time-sensitive, critical-alerts or communication: an interruption-level of time-sensitive or critical is"
                + " delivered as active"
            : "signed with \(listed(present))"
        return [AppFinding(.notificationEntitlements, .pass, target: name(app), detail)]
    }
}
