/// The extension's record that a stamped notification reached the device: which delivery, and when.
///
/// On disk (format 1) a receipt is one file, `<delivery-id>.receipt`, holding exactly one line:
///
///     {"format":1,"delivery_id":"01937b21-0000-7000-8000-000000000000","received_at":"2026-08-20T09:16:44.120Z"}\n
///
/// - `format`: the version number, checked first; any other number is refused as an unknown version.
/// - `delivery_id`: the canonical lowercased UUID, the same as in the file name.
/// - `received_at`: the device time, UTC with milliseconds.
/// Unknown members are ignored, so later writers may add some without a new version. The final
/// newline is part of the format: bytes without it are taken as truncated. Nothing secret is ever part
/// of a receipt.
@_spi(Tooling) public struct Receipt: Sendable, Equatable {
    /// The format version this code writes and the only one it reads.
    static let formatVersion = 1
    /// The file name suffix of a pending receipt.
    public static let fileExtension = ".receipt"
    /// No receipt is larger than this; a bigger file is refused without reading it. (Format 1 is about
    /// 110 bytes; the room is for members later writers may add.)
    public static let maximumFileBytes = 4096

    public var deliveryID: DeliveryID
    /// The device time the notification was received.
    public var receivedAt: Timestamp

    public init(deliveryID: DeliveryID, receivedAt: Timestamp) {
        self.deliveryID = deliveryID
        self.receivedAt = receivedAt
    }

    /// `<delivery-id>.receipt`: one name per delivery, which is what makes the first writer win.
    public static func fileName(for id: DeliveryID) -> String { id.rawValue + fileExtension }

    /// This receipt's file name.
    public var fileName: String { Receipt.fileName(for: deliveryID) }

    /// The file's bytes in format 1, ending with a newline.
    public func encoded() -> [UInt8] {
        RecordFile.encode(
            version: Receipt.formatVersion,
            [
                (key: "delivery_id", value: .string(deliveryID.rawValue)),
                (key: "received_at", value: .string(receivedAt.iso8601)),
            ])
    }

    /// Reads a receipt file's bytes.
    ///
    /// - Throws: ``RecordError`` when the bytes are empty, truncated, not one JSON object followed
    ///   by a newline, of another format version, or lack a well-formed `delivery_id` or `received_at`.
    public static func decode(_ bytes: [UInt8]) throws(RecordError) -> Receipt {
        let record = try RecordFile(parsing: bytes, version: formatVersion, maximumBytes: maximumFileBytes)
        return Receipt(deliveryID: try record.deliveryID("delivery_id"), receivedAt: try record.timestamp("received_at"))
    }

    /// Reads a receipt file's bytes and checks that the file's name is the one its delivery id gives.
    ///
    /// - Throws: ``RecordError`` as ``decode(_:)``, or when `fileName` is not `<delivery_id>.receipt`.
    public static func decode(_ bytes: [UInt8], fileName: String) throws(RecordError) -> Receipt {
        let receipt = try decode(bytes)
        guard receipt.fileName == fileName else {
            throw RecordError("file name does not match its delivery_id \(receipt.deliveryID) (expected \(receipt.fileName))")
        }
        return receipt
    }
}
