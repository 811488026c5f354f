@_spi(Tooling) import CarillonExtensionCore

/// A run's requests, counted for the summary (SPEC §12): how many inputs were requests and how many
/// plain payloads, APNs' refusals by reason, extensions that do not run, images not shown somewhere.
struct RequestTally: Sendable, Equatable {
    /// What one payload's request came to, as the tally takes it.
    struct Record: Sendable, Equatable {
        var apnsReason: String
        var refused: Bool
        var extensionRuns: Bool
        var notShown: Bool

        init(apnsReason: String, refused: Bool, extensionRuns: Bool, notShown: Bool) {
            self.apnsReason = apnsReason
            self.refused = refused
            self.extensionRuns = extensionRuns
            self.notShown = notShown
        }

        init(_ judgement: RequestJudgement) {
            // FCM's refusal comes before APNs, which then answers nothing.
            apnsReason = judgement.apns.refused && judgement.apns.status == nil ? "FCM INVALID_ARGUMENT" : judgement.apns.reason
            refused = judgement.apns.refused
            extensionRuns = judgement.extensionVerdict.runs
            notShown = judgement.notShown
        }

        /// The `--fail-on` conditions it meets.
        var conditions: Set<FailOn.RequestCondition> {
            var conditions: Set<FailOn.RequestCondition> = []
            if refused { conditions.insert(.apnsRefused) }
            if notShown { conditions.insert(.notShown) }
            return conditions
        }
    }

    var requests = 0
    /// Payloads read as payload files (no request): their header checks are unknown.
    var plainPayloads = 0
    var refusals: [String: Int] = [:]
    var extensionNotRun = 0
    var notShown = 0
    /// Every `--fail-on` condition met by some payload.
    var conditions: Set<FailOn.RequestCondition> = []
    /// Whether any payload came from JSON Lines (a campaign's export).
    var fromLines = false

    /// Adds a payload's record; nil for one that came without a request, which `fromFile` says is a payload
    /// file (or standard input), not a payload the tool made (`check`'s for a URL).
    mutating func add(_ record: Record?, fromFile: Bool = true) {
        guard let record else {
            if fromFile { plainPayloads += 1 }
            return
        }
        requests += 1
        if record.refused { refusals[record.apnsReason, default: 0] += 1 }
        if !record.extensionRuns { extensionNotRun += 1 }
        if record.notShown { notShown += 1 }
        conditions.formUnion(record.conditions)
    }

    /// "; 4 requests: 1 refused (BadCollapseId), 2 without the extension, 1 image not shown somewhere",
    /// or nothing when no input was a request.
    var summaryClause: String {
        guard requests > 0 else { return "" }
        let refused = refusals.values.reduce(0, +)
        let reasons = refusals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "; \(requests) request\(requests == 1 ? "" : "s"): \(refused) refused\(reasons.isEmpty ? "" : " (\(reasons))"), "
            + "\(extensionNotRun) without the extension, \(notShown) with the image not shown somewhere"
    }
}
