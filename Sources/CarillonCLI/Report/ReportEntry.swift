@_spi(Tooling) import CarillonExtensionCore

/// What the report shows for one payload: the notification as delivered, the outcome and the trace.
/// Built from a processed payload (or one that could not be read), rendered by ``ReportCard``.
struct ReportEntry: Sendable {
    /// The attached image file, read only when the report is written.
    struct Attachment: Sendable {
        var path: String
        var type: ImageType
        /// The verified bytes, as the line's `bytes` says.
        var byteCount = 0
    }

    /// The path as the output's `payload` field prints it (``PayloadInput/name``).
    var payload: String
    var reason: Reason
    var detail: String
    /// False for an input that is not a notification at all (`invalid-payload`).
    var isNotification: Bool
    var routed: Bool
    var delivered: Delivered
    var title: String
    var subtitle: String
    var body: String
    var warnings: [String]
    var receipt: String
    var deliveryID: String?
    var elapsedMilliseconds: Double
    var attachment: Attachment?
    var trace: DownloadTrace?
    /// The command's own sections after the outcome (``ReportSection``): none for `process`.
    var sections: [ReportSection] = []

    /// A processed payload.
    init(payload: String, result: ServiceResult, warnings: [String]) {
        self.payload = payload
        reason = result.outcome.reason
        detail = result.outcome.printedDetail
        isNotification = true
        routed = result.routed
        delivered = result.delivered
        title = result.content.title
        subtitle = result.content.subtitle
        body = result.content.body
        self.warnings = warnings
        receipt = result.receipt.code
        deliveryID = result.deliveryID?.rawValue
        elapsedMilliseconds = result.elapsed.inMilliseconds
        attachment = result.content.attachments.first.map { Attachment(path: $0.path, type: $0.type, byteCount: $0.byteCount) }
        trace = result.trace
    }

    /// An input that could not be read as a JSON object.
    init(invalid payload: String, detail: String) {
        self.payload = payload
        reason = .invalidPayload
        self.detail = detail
        isNotification = false
        routed = false
        delivered = .original
        title = ""
        subtitle = ""
        body = ""
        warnings = []
        receipt = ReceiptStatus.none.code
        deliveryID = nil
        elapsedMilliseconds = 0
        attachment = nil
        trace = nil
    }

    /// Every field given, for tests.
    init(
        payload: String, reason: Reason, detail: String, title: String = "", subtitle: String = "", body: String = "",
        warnings: [String] = [], receipt: String = "none", deliveryID: String? = nil, elapsedMilliseconds: Double = 0,
        attachment: Attachment? = nil, trace: DownloadTrace? = nil, routed: Bool = true
    ) {
        self.payload = payload
        self.reason = reason
        self.detail = detail
        isNotification = reason != .invalidPayload
        self.routed = routed
        delivered = attachment == nil ? .original : .modified
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.warnings = warnings
        self.receipt = receipt
        self.deliveryID = deliveryID
        self.elapsedMilliseconds = elapsedMilliseconds
        self.attachment = attachment
        self.trace = trace
    }
}
