@_spi(Tooling) import CarillonExtensionCore

/// `--fail-on CODES|fallback`: the outcomes that make a run exit 2, for CI jobs that check a
/// campaign's images; and what the request says (SPEC §12): `apns-refused`, `not-shown`.
struct FailOn: Equatable {
    var reasons: Set<Reason>
    var requestConditions: Set<RequestCondition> = []

    /// What a request's verdicts can match.
    enum RequestCondition: String, CaseIterable, Sendable {
        /// APNs (or FCM before it) refuses the request.
        case apnsRefused = "apns-refused"
        /// The attached image shows on some surface as `not-shown`.
        case notShown = "not-shown"
    }

    /// Parses the option's value: comma-separated reason codes, `apns-refused`, `not-shown`, or
    /// `fallback` (every reason but `attached`); all may be mixed.
    static func parse(_ text: String) throws(UsageError) -> FailOn {
        var reasons: Set<Reason> = []
        var conditions: Set<RequestCondition> = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).filter { $0 != " " } }
        for item in items {
            if item == "fallback" {
                reasons.formUnion(Reason.allCases.filter { $0 != .attached })
            } else if let reason = Reason(rawValue: item) {
                reasons.insert(reason)
            } else if let condition = RequestCondition(rawValue: item) {
                conditions.insert(condition)
            } else {
                let known = (Reason.allCases.map(\.code) + RequestCondition.allCases.map(\.rawValue)).joined(separator: ", ")
                throw UsageError(message: "option '--fail-on' needs reason codes or 'fallback', not '\(item)' (codes: \(known))")
            }
        }
        return FailOn(reasons: reasons, requestConditions: conditions)
    }

    func matches(_ reason: Reason) -> Bool { reasons.contains(reason) }

    /// Whether a request's verdicts match: `conditions` are the ones that hold for it.
    func matches(_ conditions: Set<RequestCondition>) -> Bool { !requestConditions.isDisjoint(with: conditions) }
}
