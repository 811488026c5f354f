/// The device's Settings > Notifications > Show Previews (per app as well): a setting of the phone, not
/// of the app, so never among ``PresentationFacts``.
package enum ShowPreviews: String, Sendable, CaseIterable, Equatable {
    case always
    case whenUnlocked = "when-unlocked"
    case never
}
