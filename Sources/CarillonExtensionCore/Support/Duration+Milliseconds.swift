/// A `Duration` as milliseconds, for the places that print or store them: the library takes and
/// returns intervals as `Duration`, and only output (`elapsed_ms`, `budget_ms`, sentences) and the
/// millisecond timestamps of files count in milliseconds; libcurl's and `poll`'s millisecond timeouts
/// round up instead (``roundedUpMilliseconds``).
extension Duration {
    /// The duration in milliseconds, fraction included: what the tool prints as `elapsed_ms`.
    @_spi(Tooling) public var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in whole milliseconds, the fraction dropped (toward zero), clamped into `Int64`.
    @_spi(Tooling) public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = milliseconds.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        return sumOverflow ? (seconds < 0 ? .min : .max) : sum
    }

    /// The duration in whole milliseconds, rounded up (a wait never ends before its time), at least 1:
    /// libcurl reads a timeout of 0 as "no limit". A duration too long for milliseconds in an `Int` (the
    /// public limits take any `Duration`) saturates instead of trapping.
    var roundedUpMilliseconds: Int {
        // `wholeMilliseconds` drops the fraction toward zero and saturates; a remainder rounds it up.
        let whole = wholeMilliseconds
        let rounded = whole < .max && .milliseconds(whole) < self ? whole + 1 : whole
        return Int(clamping: max(rounded, 1))
    }
}
