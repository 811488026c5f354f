/// Where the extension keeps its files and how it downloads.
public struct ExtensionConfiguration: Sendable {
    /// Directory for attachment files (the extension's temporary directory on iOS).
    public var attachmentsDirectory: String
    /// The shared container standing in for the App Group; nil means no receipts, as on iOS without
    /// `CarillonAppGroup`.
    public var receiptContainer: String?
    /// How images are downloaded: limits, App Transport Security, extra certificate authorities.
    public var download: DownloadConfiguration

    /// A configuration; without `receiptContainer` no receipts are written.
    public init(attachmentsDirectory: String, receiptContainer: String? = nil, download: DownloadConfiguration = .init()) {
        self.attachmentsDirectory = attachmentsDirectory
        self.receiptContainer = receiptContainer
        self.download = download
    }
}

/// How the extension delivered the notification.
public enum Delivered: String, Sendable {
    /// The original content plus the image attachment.
    case modified
    /// The original content, unchanged.
    case original
}

/// What became of a receipt for this notification.
public enum ReceiptStatus: Sendable, Equatable {
    /// No receipt was due: not routed, no delivery id, or no container.
    case none
    /// A receipt was due, and this is what writing it did.
    case recorded(ReceiptResult)

    /// `stored`, `duplicate`, `none` or `failed`, as the CLI prints it.
    public var code: String {
        switch self {
        case .none: return "none"
        case .recorded(let result): return result.code
        }
    }
}

/// Everything the extension did with one notification: delivered once, through the content handler.
public struct ServiceResult: Sendable {
    /// The content handed to the content handler.
    public var content: NotificationContent
    /// Whether the content was modified (an image attached) or the original.
    public var delivered: Delivered
    /// The reason code and the sentence that explains it.
    public var outcome: Outcome
    /// Whether iOS would have run the extension at all.
    public var routed: Bool
    /// The payload's `carillon.delivery_id`, when it has a valid one.
    public var deliveryID: DeliveryID?
    /// What became of the receipt.
    public var receipt: ReceiptStatus
    /// What was odd about the payload or the receipt, in words.
    public var warnings: [String]
    /// Milliseconds from `didReceive` to the content handler.
    public var elapsedMilliseconds: Double
    /// The payload's `carillon.image` when it is a string (valid or not).
    public var imageURL: String? = nil
    /// What the image download did; nil when none was attempted.
    public var trace: DownloadTrace? = nil
}
