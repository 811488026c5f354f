/// One check of a built app on one of its targets: how it came out, why, and the rule's source.
package struct AppFinding: Sendable, Equatable {
    /// How a check came out.
    package enum Status: String, Sendable, Equatable, CaseIterable {
        case pass
        case fail
        case warn
        /// What the app as read cannot tell (no profile to compare, an unsigned target's entitlements).
        case unknown
    }

    /// The check's name (``AppRule``).
    package var check: String
    package var status: Status
    /// The target it is about: its bundle identifier (its path when it has none).
    package var target: String
    /// What was found, naming both values where two disagree.
    package var detail: String
    /// Where the rule comes from: a sentence of Carillon's SDK README, or an Apple document.
    package var source: String

    package init(_ rule: AppRule, _ status: Status, target: String, _ detail: String) {
        check = rule.rawValue
        self.status = status
        self.target = target
        self.detail = detail
        source = rule.source
    }
}
