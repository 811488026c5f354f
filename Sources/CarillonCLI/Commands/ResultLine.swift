@_spi(Tooling) import CarillonExtensionCore

/// The JSON line `process` prints for one payload (SPEC §6).
enum ResultLine {
    static func make(_ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String]) -> String {
        render(
            payload: payload, routed: result.routed, outcome: result.outcome, delivered: result.delivered,
            deliveryID: result.deliveryID, receipt: result.receipt.code, attachments: result.content.attachments,
            elapsedMilliseconds: result.elapsedMilliseconds, warnings: payloadWarnings + result.warnings,
            imageURL: result.imageURL, trace: result.trace)
    }

    /// The line for an input that is not a payload: unreadable, or not a JSON object.
    static func invalid(_ payload: PayloadInput, _ detail: String) -> String {
        render(
            payload: payload, routed: false, outcome: Outcome(.invalidPayload, detail), delivered: .original,
            deliveryID: nil, receipt: ReceiptStatus.none.code, attachments: [], elapsedMilliseconds: 0, warnings: [],
            imageURL: nil, trace: nil)
    }

    /// Every field of SPEC §6, in its order.
    private static func render(
        payload: PayloadInput, routed: Bool, outcome: Outcome, delivered: Delivered, deliveryID: DeliveryID?, receipt: String,
        attachments: [NotificationAttachment], elapsedMilliseconds: Double, warnings: [String], imageURL: String?,
        trace: DownloadTrace?
    ) -> String {
        let files: [JSONValue] = attachments.map { attachment in
            [
                "file": .string(FileName.display(attachment.path)), "type": .string(attachment.type.rawValue),
                "bytes": .number(String(attachment.byteCount)),
            ]
        }
        var line: JSONValue = [
            "payload": .string(payload.name),
            "routed": .bool(routed),
            "reason": .string(outcome.reason.code),
            "detail": .string(outcome.detail),
            "delivered": .string(delivered.rawValue),
            "delivery_id": deliveryID.map { .string($0.rawValue) } ?? .null,
            "receipt": .string(receipt),
            "attachments": .array(files),
            "elapsed_ms": .number(milliseconds(elapsedMilliseconds)),
            "warnings": .array(warnings.map { .string($0) }),
            "image_url": imageURL.map { .string($0) } ?? .null,
            "trace": TraceJSON.value(trace),
        ]
        // A name that is not UTF-8 shows its odd bytes as \xNN in `payload`; the exact bytes ride along.
        if let bytes = payload.nameBytes, case .object(var members) = line {
            members.insert((key: "payload_base64", value: .string(Base64.encode(bytes))), at: 1)
            line = .object(members)
        }
        return JSONWriter.string(line)
    }

    /// Milliseconds with three decimals, as JSON number text.
    static func milliseconds(_ value: Double) -> String {
        let thousandths = Int((max(0, value) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
