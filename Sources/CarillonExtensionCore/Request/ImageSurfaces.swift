/// Where an attached image shows (SPEC §12, `request.shown`): for each surface — the banner (collapsed),
/// the expanded notification, the Notification Center list, the lock screen — `shown`,
/// `expanded-only`, `not-shown` or `unknown`, each with the rule that decided it. Pure: the payload's
/// `aps`, what the app says (``PresentationFacts``) and the device's previews setting, when known.
package struct ImageSurfaces: Sendable, Equatable {
    package enum Value: String, Sendable, Equatable {
        case shown
        case expandedOnly = "expanded-only"
        case notShown = "not-shown"
        case unknown
    }

    package enum Surface: String, Sendable, CaseIterable, Equatable {
        case banner, expanded, list
        case lockScreen = "lock_screen"
    }

    /// One surface's value and the rule behind it.
    package struct Placement: Sendable, Equatable {
        package var value: Value
        package var rule: RequestRule
        package var why: String
    }

    package var banner: Placement
    package var expanded: Placement
    package var list: Placement
    package var lockScreen: Placement
    /// What a person should hear about how it is presented (a level iOS will not honour, a score out of range).
    package var warnings: [String]

    package subscript(surface: Surface) -> Placement {
        switch surface {
        case .banner: banner
        case .expanded: expanded
        case .list: list
        case .lockScreen: lockScreen
        }
    }

    /// Whether any surface is `not-shown`.
    package var anyNotShown: Bool { Surface.allCases.contains { self[$0].value == .notShown } }

    /// Decides where an attached image shows for a notification with `payload`.
    package static func judge(payload: JSONValue, facts: PresentationFacts = .unknown, previews: ShowPreviews? = nil) -> ImageSurfaces {
        let aps = payload["aps"]
        let level = aps?["interruption-level"]?.stringValue
        let collapsed = collapsedPlacement(aps: aps, facts: facts)
        var expanded = expandedPlacement(aps: aps, facts: facts)
        var banner = collapsed
        if level == "passive" {
            banner = Placement(value: .notShown, rule: RequestRules.passive, why: "interruption-level passive: no banner, the list only")
        }
        var list = collapsed
        var lockScreen = lockScreenPlacement(collapsed, previews: previews)
        if previews == .never {
            let hidden = Placement(value: .notShown, rule: RequestRules.previewsNever, why: "Show Previews is Never: no content is shown")
            if banner.value != .notShown { banner = hidden }
            list = hidden
            lockScreen = hidden
            if expanded.value == .shown {
                expanded = Placement(
                    value: .unknown, rule: RequestRules.previewsNever, why: "Show Previews is Never: what expanding shows is not documented"
                )
            }
        }
        return ImageSurfaces(
            banner: banner, expanded: expanded, list: list, lockScreen: lockScreen, warnings: presentationWarnings(aps: aps, facts: facts))
    }

    /// The category's content extension, when the app (or the run) says one claims it: whether its
    /// default content is hidden.
    private static func contentExtension(aps: JSONValue?, facts: PresentationFacts) -> Bool? {
        guard let category = aps?["category"]?.stringValue else { return nil }
        return facts.contentExtensionCategories?[category]
    }

    /// A collapsed notification (banner, list, lock screen): the thumbnail, unless a content extension
    /// claims the category.
    private static func collapsedPlacement(aps: JSONValue?, facts: PresentationFacts) -> Placement {
        let category = aps?["category"]?.stringValue.map { Quoting.single($0, limit: 60) } ?? ""
        switch contentExtension(aps: aps, facts: facts) {
        case true?:
            return Placement(
                value: .notShown, rule: RequestRules.contentHidden,
                why: "category \(category) is a content extension's with its default content hidden: only its view shows, when expanded")
        case false?:
            return Placement(
                value: .expandedOnly, rule: RequestRules.contentExtension,
                why: "category \(category) is a content extension's: the image shows in its view, when expanded")
        case nil:
            return Placement(value: .shown, rule: RequestRules.shownDefault, why: "the attachment's thumbnail")
        }
    }

    private static func expandedPlacement(aps: JSONValue?, facts: PresentationFacts) -> Placement {
        let category = aps?["category"]?.stringValue.map { Quoting.single($0, limit: 60) } ?? ""
        switch contentExtension(aps: aps, facts: facts) {
        case true?:
            return Placement(
                value: .unknown, rule: RequestRules.contentHidden,
                why: "category \(category) shows only its content extension's view: the image only if that view draws it")
        case false?:
            return Placement(
                value: .shown, rule: RequestRules.contentExtension, why: "in the content extension's view of category \(category)")
        case nil:
            var why = "the attachment, large"
            if facts.contentExtensionCategories == nil, aps?["category"]?.stringValue != nil {
                why += " (unless a content extension claims category \(category), which only the app can say)"
            }
            return Placement(value: .shown, rule: RequestRules.shownDefault, why: why)
        }
    }

    /// The lock screen: as the list, where the device's previews allow it.
    private static func lockScreenPlacement(_ collapsed: Placement, previews: ShowPreviews?) -> Placement {
        switch previews {
        case nil:
            return Placement(
                value: .unknown, rule: RequestRules.previews,
                why: "the device's Show Previews decides (default When Unlocked: not while locked)")
        case .whenUnlocked?:
            return Placement(
                value: .notShown, rule: RequestRules.previews, why: "Show Previews When Unlocked: the locked screen shows no content")
        case .always?, .never?:
            return collapsed
        }
    }

    private static func presentationWarnings(aps: JSONValue?, facts: PresentationFacts) -> [String] {
        var warnings: [String] = []
        if let level = aps?["interruption-level"] {
            switch level.stringValue {
            case "time-sensitive"? where facts.timeSensitiveEntitlement == false:
                warnings.append("interruption-level time-sensitive without the app's time-sensitive entitlement: iOS treats it as active")
            case "critical"? where facts.criticalAlertsEntitlement == false:
                warnings.append("interruption-level critical without the app's critical-alerts entitlement: iOS treats it as active")
            case "passive"?, "active"?, "time-sensitive"?, "critical"?:
                break
            default:
                warnings.append("aps.interruption-level \(JSONWriter.string(level)) is not passive, active, time-sensitive or critical")
            }
        }
        if let score = aps?["relevance-score"], !(score.doubleValue.map { $0 >= 0 && $0 <= 1 } ?? false) {
            warnings.append("aps.relevance-score \(JSONWriter.string(score)) is not a number from 0 to 1")
        }
        return warnings
    }
}
