@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    // MARK: - FuzzReceipt

    /// `Receipt.decode`: a decoded receipt re-encodes to bytes that decode to an equal receipt, and encoding
    /// is stable; the file name check accepts its own name.
    public static func receipt(_ bytes: [UInt8]) throws(FuzzFailure) {
        let receipt: Receipt
        do {
            receipt = try Receipt.decode(bytes)
        } catch {
            try check(!error.message.isEmpty, "a receipt refused without a message")
            return
        }
        try check(
            !bytes.isEmpty && bytes.count <= Receipt.maximumFileBytes && bytes.last == UInt8(ascii: "\n"),
            "a receipt decoded from empty, oversized or unterminated bytes")
        try deliveryID(receipt.deliveryID)
        try timestamp(receipt.receivedAt)
        let encoded = receipt.encoded()
        try check(encoded.last == UInt8(ascii: "\n") && encoded.count <= Receipt.maximumFileBytes, "a bad receipt encoding")
        let again: Receipt
        do {
            again = try Receipt.decode(encoded, fileName: receipt.fileName)
        } catch {
            throw FuzzFailure(message: "a re-encoded receipt does not decode: \(error.message)")
        }
        try check(again == receipt, "receipt round trip changed it: \(receipt) became \(again)")
        try check(again.encoded() == encoded, "receipt encoding is not stable")
    }

    /// A timestamp is in range and its ISO 8601 text parses back to it.
    static func timestamp(_ time: Timestamp) throws(FuzzFailure) {
        try check(time >= Timestamp.earliest && time <= Timestamp.latest, "timestamp \(time.millisecondsSinceEpoch) out of range")
        try check(time.iso8601.utf8.count == 24, "timestamp text \(time.iso8601) is not 24 characters")
        try check(Timestamp(iso8601: time.iso8601) == time, "timestamp \(time.iso8601) does not parse back to itself")
    }
}
