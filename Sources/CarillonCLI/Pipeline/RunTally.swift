@_spi(Tooling) import CarillonExtensionCore
import Synchronization

/// What one payload came to, as the tally takes it (in input order, once its line is printed).
struct PayloadRecord: Sendable {
    var name: String
    var outcome: Outcome
    var elapsedMilliseconds: Double
    /// The payload's `carillon.image` when it was routed: the image its outcome is about (a verdict of
    /// the URL rules, `invalid-url` or `insecure-url`, is one too).
    var image: String?
    var sharedWith: String?
    var trace: DownloadTrace?
    var attachment: NotificationAttachment?
    var entry: ReportEntry?
    /// What the payload is as a JUnit test case.
    var verdict: JUnitXML.Verdict
    /// Whether its receipt was to be stored and was not (its line's `receipt` is `failed`).
    var receiptFailed = false
    /// Its position over all inputs (SPEC §6c), and what a `--bundle` keeps of it: the record's data and
    /// the line as printed.
    var position = 0
    var bundleData: BundledPayload? = nil
    var bundleLine: [UInt8]? = nil
    /// What its request came to (SPEC §12); nil for a payload file.
    var request: RequestTally.Record? = nil
    /// Whether it was a line of JSON Lines: a campaign's export.
    var fromLines = false
    /// Whether the tool made it (`check`'s payload for a URL): no payload file lacks its request there.
    var madeByTool = false
}

/// Collects a run's records: reasons and times for the summary, report cards, distinct images.
final class RunTally: Sendable {
    private struct State {
        var outcomes: [(reason: Reason, elapsedMilliseconds: Double)] = []
        var groups = ReportGroups()
        var images = CampaignImages()
        var failures = 0
        var errors = 0
        var receiptFailures = 0
        /// Payloads that named an image and were delivered without it: the progress line's "fell back".
        var fellBack = 0
        var requests = RequestTally()
    }

    private let state = Mutex(State())
    private let collectsReport: Bool
    private let campaign: Bool
    /// Called with each record, in input order, under the tally's lock.
    private let onRecord: (@Sendable (PayloadRecord) -> Void)?

    init(collectsReport: Bool, campaign: Bool, onRecord: (@Sendable (PayloadRecord) -> Void)? = nil) {
        self.collectsReport = collectsReport
        self.campaign = campaign
        self.onRecord = onRecord
    }

    func add(_ record: PayloadRecord) {
        state.withLock { state in
            state.outcomes.append((record.outcome.reason, record.elapsedMilliseconds))
            if collectsReport, let entry = record.entry { state.groups.add(entry, image: record.image) }
            if campaign { state.images.add(record) }
            if record.verdict == .failure { state.failures += 1 }
            if record.verdict == .error { state.errors += 1 }
            if record.receiptFailed { state.receiptFailures += 1 }
            if record.image != nil && record.outcome.reason != .attached { state.fellBack += 1 }
            if record.verdict != .error { state.requests.add(record.request, fromFile: !record.madeByTool) }
            if record.fromLines { state.requests.fromLines = true }
            onRecord?(record)
        }
    }

    /// What the progress line says of the records taken so far: how many, their distinct images, how
    /// many fell back.
    var counts: (done: Int, images: Int, fellBack: Int) {
        state.withLock { ($0.outcomes.count, $0.images.count, $0.fellBack) }
    }

    /// Whether a record of `image` with `reason` would be taken whole — its trace for the image's
    /// verdict, or its whole card for the report — if it came next: what a merge parses a line for.
    func wantsWhole(image: String?, reason: Reason) -> Bool {
        state.withLock { state in
            (campaign && image.map { !state.images.isDecided($0) && reason != .expired } ?? false)
                || (collectsReport && state.groups.wantsCard(image: image, reason: reason))
        }
    }

    func report(allRead: Bool) -> PayloadRunner.Report {
        state.withLock { state in
            PayloadRunner.Report(
                allRead: allRead, outcomes: state.outcomes, groups: state.groups, images: campaign ? state.images : nil,
                testFailures: state.failures, testErrors: state.errors, receiptFailures: state.receiptFailures, requests: state.requests)
        }
    }
}
