@_spi(Tooling) import CarillonExtensionCore

/// The `--report` cards of a run, kept bounded (SPEC §6a): grouped by image (payloads without one by
/// their reason), the first few of each group as whole cards and every other payload as a compact row
/// (its name, time, and its reason and detail where they differ from the row above), so a page of
/// 100,000 payloads names each one and stays one page under 10 MB.
struct ReportGroups: Sendable {
    /// A payload shown as a row: its name, reason, detail and time.
    struct Row: Sendable {
        var payload: String
        var reason: Reason
        var detail: String
        var elapsedMilliseconds: Double
    }

    /// The payloads of one image (or of one reason, without an image).
    struct Group: Sendable {
        /// The image URL, or nil for payloads without a fetched image.
        var image: String?
        var reason: Reason
        var payloads = 0
        var reasons: [Reason: Int] = [:]
        /// The first cards, each with its position in the input.
        var cards: [ReportEntry] = []
        var rows: [Row] = []
    }

    /// Whole cards kept per group (fewer are shown when there are many groups).
    static let cardsPerGroup = 3

    /// Up to this many payloads, the page is the plain one: a whole card each, in input order.
    static let plainLimit = 1000

    private(set) var groups: [Group] = []
    /// Every card while the run is within ``plainLimit``; emptied once it is not.
    private var plain: [ReportEntry] = []
    private var index: [String: Int] = [:]
    private(set) var payloads = 0

    mutating func add(_ entry: ReportEntry, image: String?) {
        if payloads < Self.plainLimit {
            plain.append(entry)
        } else if !plain.isEmpty {
            plain = []
        }
        let key = image.map { "image " + $0 } ?? "reason " + entry.reason.code
        let position: Int
        if let known = index[key] {
            position = known
        } else {
            position = groups.count
            index[key] = position
            groups.append(Group(image: image, reason: entry.reason))
        }
        groups[position].payloads += 1
        groups[position].reasons[entry.reason, default: 0] += 1
        if groups[position].cards.count < Self.cardsPerGroup {
            groups[position].cards.append(entry)
        } else {
            groups[position].rows.append(
                Row(payload: entry.payload, reason: entry.reason, detail: entry.detail, elapsedMilliseconds: entry.elapsedMilliseconds))
        }
        payloads += 1
    }

    /// Whether a payload of `image` (or, without one, of `reason`) added next would keep its whole card:
    /// within the plain page's count, or among its group's first cards.
    func wantsCard(image: String?, reason: Reason) -> Bool {
        guard payloads >= Self.plainLimit else { return true }
        let key = image.map { "image " + $0 } ?? "reason " + reason.code
        return index[key].map { groups[$0].cards.count < Self.cardsPerGroup } ?? true
    }

    /// Whether every payload has its whole card (then the page is the plain one, in input order): a run
    /// of at most ``plainLimit`` payloads.
    var isComplete: Bool { payloads <= Self.plainLimit }

    /// Every card, in input order, for a run of at most ``plainLimit`` payloads.
    var entriesInInputOrder: [ReportEntry] { plain }

    /// How many whole cards each group shows: all kept for up to 300 groups, fewer beyond, at least one.
    var cardsShown: Int { max(1, min(Self.cardsPerGroup, 900 / max(groups.count, 1))) }
}
