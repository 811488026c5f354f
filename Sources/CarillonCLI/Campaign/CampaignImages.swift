@_spi(Tooling) import CarillonExtensionCore

/// A campaign's distinct images (SPEC §6a): for each image URL, its verdict, how many payloads named
/// it, the first few of them, and what its fetch found. Grows with the number of images, not payloads.
struct CampaignImages: Sendable {
    /// One distinct image.
    struct Image: Sendable {
        var url: String
        /// The verdict: the outcome of the payload that fetched it (or of the first one not `expired`).
        var outcome: Outcome
        var payloads = 0
        var firstPayloads: [String] = []
        var reasons: [Reason: Int] = [:]
        var type: ImageType?
        var byteCount: Int?
        var trace: DownloadTrace?
        /// Whether the verdict is final: taken from a payload that did not expire first.
        var decided: Bool
    }

    /// How many first payloads each image lists.
    static let firstPayloadCount = 5

    private(set) var images: [Image] = []
    private var index: [String: Int] = [:]
    /// Payloads per reason, all of them (with or without an image).
    private(set) var reasons: [Reason: Int] = [:]
    private(set) var payloads = 0

    mutating func add(_ record: PayloadRecord) {
        payloads += 1
        reasons[record.outcome.reason, default: 0] += 1
        guard let url = record.image else { return }
        let position: Int
        if let known = index[url] {
            position = known
        } else {
            position = images.count
            index[url] = position
            images.append(Image(url: url, outcome: record.outcome, decided: false))
        }
        var image = images[position]
        image.payloads += 1
        if image.firstPayloads.count < Self.firstPayloadCount { image.firstPayloads.append(record.name) }
        image.reasons[record.outcome.reason, default: 0] += 1
        if !image.decided && record.outcome.reason != .expired {
            image.decided = true
            image.outcome = record.outcome
            image.type = record.attachment?.type
            image.byteCount = record.attachment?.byteCount
            image.trace = record.trace
        }
        images[position] = image
    }

    /// How many distinct images.
    var count: Int { images.count }

    /// Whether `url`'s verdict is taken (a later payload of it adds only its counts).
    func isDecided(_ url: String) -> Bool { index[url].map { images[$0].decided } ?? false }
}
