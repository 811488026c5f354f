@_spi(Tooling) import CarillonExtensionCore

/// `--fail-on CODES|fallback`: the outcomes that make a run exit 2, for CI jobs that check a
/// campaign's images.
struct FailOn: Equatable {
    var reasons: Set<Reason>

    /// Parses the option's value: comma-separated reason codes, or `fallback` (every reason but
    /// `attached`); both may be mixed.
    static func parse(_ text: String) throws(UsageError) -> FailOn {
        var reasons: Set<Reason> = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).filter { $0 != " " } }
        for item in items {
            if item == "fallback" {
                reasons.formUnion(Reason.allCases.filter { $0 != .attached })
            } else if let reason = Reason(rawValue: item) {
                reasons.insert(reason)
            } else {
                let known = Reason.allCases.map(\.code).joined(separator: ", ")
                throw UsageError(message: "option '--fail-on' needs reason codes or 'fallback', not '\(item)' (codes: \(known))")
            }
        }
        return FailOn(reasons: reasons)
    }

    func matches(_ reason: Reason) -> Bool { reasons.contains(reason) }
}
