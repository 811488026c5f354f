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
    /// From `didReceive` to the content handler.
    public var elapsed: Duration
    /// The payload's `carillon.image` when it is a string (valid or not).
    public var imageURL: String? = nil
    /// What the image download did; nil when none was attempted.
    public var trace: DownloadTrace? = nil
    /// The identifier of the request whose download of the same image this one shared
    /// (`SharedImageSource`); nil when it fetched its own, or downloaded nothing.
    public var sharedWith: String? = nil
}
