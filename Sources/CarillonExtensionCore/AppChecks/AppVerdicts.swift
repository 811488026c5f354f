/// The three answers a person asks of a built app, from its findings: will images show, will receipts
/// reach the app, and where will the image show.
package struct AppVerdicts: Sendable, Equatable {
    /// One answer: `pass`, `warn` or `fail`, and why.
    package struct Verdict: Sendable, Equatable {
        package var status: AppFinding.Status
        package var reason: String
    }

    /// The extension is installed, runs and may download: images are attached.
    package var images: Verdict
    /// Receipts are written where the app reads them.
    package var receipts: Verdict
    /// Where an attached image shows, given the content extensions' categories and the entitlements.
    package var presentation: Verdict
    /// The categories content extensions claim, each with `UNNotificationExtensionDefaultContentHidden`.
    package var categories: [String: Bool]
    /// The notification entitlements the app is signed with (nil: not signed, unknown).
    package var entitlements: [(name: String, present: Bool?)]

    /// The checks without which the extension never runs, or never receives a push.
    static let imageRules: [AppRule] = [
        .serviceExtension, .bundleIdentifierPrefix, .minimumOS, .signed, .profile, .profileExpiry, .apsEnvironment,
    ]
    /// The checks of the App Group hand-off.
    static let receiptRules: [AppRule] = [.appGroupInfo, .appGroupEntitlements, .appGroupProfiles]

    package static func == (lhs: AppVerdicts, rhs: AppVerdicts) -> Bool {
        lhs.images == rhs.images && lhs.receipts == rhs.receipts && lhs.presentation == rhs.presentation
            && lhs.categories == rhs.categories && lhs.entitlements.map(\.name) == rhs.entitlements.map(\.name)
            && lhs.entitlements.map(\.present) == rhs.entitlements.map(\.present)
    }

    /// The verdicts `findings` of `bundle` make.
    package init(_ findings: [AppFinding], _ bundle: AppBundle) {
        func first(_ status: AppFinding.Status, in rules: [AppRule]) -> AppFinding? {
            findings.first { $0.status == status && rules.map(\.rawValue).contains($0.check) }
        }
        func words(_ finding: AppFinding) -> String { "\(finding.check) (\(finding.target)): \(finding.detail)" }
        if let failed = first(.fail, in: Self.imageRules) {
            images = Verdict(status: .fail, reason: words(failed))
        } else if let warned = first(.warn, in: [.transportSecurity]) {
            images = Verdict(status: .warn, reason: words(warned))
        } else {
            images = Verdict(
                status: .pass,
                reason:
                    "the notification service extension is embedded, signed and provisioned: it runs and attaches images as its downloads allow"
            )
        }
        if images.status == .fail {
            receipts = Verdict(status: .fail, reason: "the extension does not run, so it writes no receipt: " + images.reason)
        } else if let failed = first(.fail, in: Self.receiptRules) {
            receipts = Verdict(status: .fail, reason: words(failed))
        } else if let warned = first(.warn, in: Self.receiptRules) {
            receipts = Verdict(status: .warn, reason: words(warned))
        } else {
            receipts = Verdict(
                status: .pass,
                reason:
                    "both targets name the App Group \(Quoting.single(AppChecks.handOffGroup(bundle) ?? "")) and are signed and provisioned for it"
            )
        }
        let facts = bundle.presentationFacts
        categories = facts.contentExtensionCategories ?? [:]
        entitlements = [
            ("time-sensitive", facts.timeSensitiveEntitlement), ("critical-alerts", facts.criticalAlertsEntitlement),
            ("communication", facts.communicationNotificationsEntitlement),
        ]
        // A content extension that claims no category, or hides the default content of one, is a warning.
        if let warned = first(.warn, in: [.contentExtensions]) {
            presentation = Verdict(status: .warn, reason: words(warned))
        } else if !categories.isEmpty {
            presentation = Verdict(
                status: .pass,
                reason:
                    "in \(AppChecks.listed(categories.keys.sorted())) the image shows in the content extension's view; elsewhere in the system's"
            )
        } else {
            presentation = Verdict(status: .pass, reason: "no content extension: an attached image shows in the system's views")
        }
    }
}
