extension RequestRules {
    // MARK: - Whether the extension runs

    static let routing = RequestRule(
        id: "extension.routing",
        statement: "iOS runs the extension only for aps.mutable-content 1 with an alert to display (SPEC §1)", source: .appleModifying)
    static let refused = RequestRule(
        id: "extension.refused", statement: "a request APNs or FCM refuses delivers nothing: no extension runs", source: .appleResponses)
    static let background = RequestRule(
        id: "extension.background", statement: "apns-push-type background is never displayed, so no extension runs",
        source: .appleBackground)
    static let otherPushType = RequestRule(
        id: "extension.push-type",
        statement:
            "only alert pushes reach the notification service extension: voip and pushtotalk go to PushKit, liveactivity and widgets to the system, location to its own extension",
        source: .appleSending)
    static let priorityLow = RequestRule(
        id: "extension.priority",
        statement:
            "apns-priority 5 is delivered in bursts and throttled, 1 waits for the device's power: the extension runs late, if the notification arrives in time (a warning)",
        source: .appleSending)
    static let seedOverride = RequestRule(
        id: "extension.override",
        statement:
            "a payload with carillon.image and an alert whose aps has no mutable-content: an apns override that replaced aps wholesale drops mutable-content: 1; keep it in the override",
        source: .seed)

    // MARK: - Where the image shows

    static let shownDefault = RequestRule(
        id: "shown.default",
        statement: "an attached image shows as a thumbnail in the banner, the list and on the lock screen, and large when expanded",
        source: .appleAttachment)
    static let passive = RequestRule(
        id: "shown.passive", statement: "interruption-level passive shows no banner; the notification goes to the list only",
        source: .appleInterruption)
    static let contentExtension = RequestRule(
        id: "shown.content-extension",
        statement: "a category a content extension claims shows the image only in the extension's view, when expanded",
        source: .appleAppearance)
    static let contentHidden = RequestRule(
        id: "shown.content-hidden",
        statement:
            "with UNNotificationExtensionDefaultContentHidden, only the extension's view shows: the image appears only if that view draws it",
        source: .appleAppearance)
    static let previews = RequestRule(
        id: "shown.previews",
        statement:
            "the lock screen shows a notification's content only as the device's Show Previews allows (default When Unlocked: not while locked); unknown unless stated",
        source: .applePreviews)
    static let previewsNever = RequestRule(
        id: "shown.previews-never",
        statement: "Show Previews Never hides the content of banners, the list and the lock screen; what expanding shows is not documented",
        source: .applePreviews)
    static let entitlement = RequestRule(
        id: "shown.interruption-entitlement",
        statement:
            "interruption-level time-sensitive or critical without the app's entitlement is treated as active (a warning); an unknown level is not one of Apple's four",
        source: .appleTimeSensitive)
    static let relevance = RequestRule(
        id: "shown.relevance-score", statement: "relevance-score is a number from 0 to 1 (a warning otherwise)", source: .appleGenerating)

    /// Every rule, in the order `Documentation/Requests.md` lists them: Apple's documents first.
    package static let all: [RequestRule] = {
        let rules = [
            method, path, tokenMissing, tokenHex, duplicateHeaders, pushType, pushTypeMissing, topicMissing, topicApp, priority,
            priorityBackground, expiration, collapseID, apnsID, payloadEmpty, payloadSize, host, http2, credentials, routing, refused,
            background, otherPushType, priorityLow, shownDefault, passive, contentExtension, contentHidden, previews, previewsNever,
            entitlement, relevance, fcmFields, fcmTarget, fcmStrings, fcmReservedData, fcmValidateOnly, fcmMapping, fcmImage, fcmRaw,
            seedOverride,
            topicSuffix,
        ]
        // Apple's own documents, then Firebase's, then the product's, then one developer's observations.
        func rank(_ rule: RequestRule) -> Int {
            if rule.source.isObservation { return 3 }
            if rule.source.title.hasPrefix("Apple") { return 0 }
            return rule.source.title.hasPrefix("Firebase") ? 1 : 2
        }
        return rules.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }()
}
