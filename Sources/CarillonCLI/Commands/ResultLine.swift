import CarillonExtensionCore

/// The JSON line `process` prints for one payload (SPEC §6).
enum ResultLine {
    static func make(_ payload: String, result: ServiceResult, payloadWarnings: [String]) -> String {
        let attachments: [JSONValue] = result.content.attachments.map { attachment in
            ["file": .string(attachment.path), "type": .string(attachment.type.rawValue), "bytes": .number(String(attachment.byteCount))]
        }
        let line: JSONValue = [
            "payload": .string(payload),
            "routed": .bool(result.routed),
            "reason": .string(result.outcome.reason.code),
            "detail": .string(result.outcome.detail),
            "delivered": .string(result.delivered.rawValue),
            "delivery_id": result.deliveryID.map { .string($0.rawValue) } ?? .null,
            "receipt": .string(result.receipt.code),
            "attachments": .array(attachments),
            "elapsed_ms": .number(milliseconds(result.elapsedMilliseconds)),
            "warnings": .array((payloadWarnings + result.warnings).map { .string($0) }),
        ]
        return JSONWriter.string(line)
    }

    /// The line for an input that is not a payload: unreadable, or not a JSON object.
    static func invalid(_ payload: String, _ detail: String) -> String {
        let line: JSONValue = [
            "payload": .string(payload),
            "routed": false,
            "reason": .string(Reason.invalidPayload.code),
            "detail": .string(detail),
            "delivered": .string(Delivered.original.rawValue),
            "delivery_id": nil,
            "receipt": "none",
            "attachments": [],
            "elapsed_ms": .number("0"),
            "warnings": [],
        ]
        return JSONWriter.string(line)
    }

    /// Milliseconds with three decimals, as JSON number text.
    static func milliseconds(_ value: Double) -> String {
        let thousandths = Int((max(0, value) * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
