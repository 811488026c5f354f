@_spi(Tooling) import CarillonExtensionCore

/// The JSON line `process` prints for one payload (SPEC §6).
enum ResultLine {
    /// `keptFiles` false: the attachment files last only for the run, and each `file` is null;
    /// `request`: the request's object (SPEC §12, ``RequestLine``), null for a payload file;
    /// `recording`: with `--record`, the recording's path or null, as the line's last field; `replay`:
    /// `replay`'s object, last.
    static func make(
        _ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String], keptFiles: Bool = true, request: JSONValue = .null,
        recording: JSONValue? = nil, replay: JSONValue? = nil
    ) -> String {
        JSONWriter.string(
            value(
                payload, result: result, payloadWarnings: payloadWarnings, keptFiles: keptFiles, request: request, recording: recording,
                replay: replay))
    }

    /// ``make(_:result:payloadWarnings:keptFiles:request:recording:replay:)``'s line as a value: what a recording
    /// keeps as its verdict, and what a `--bundle` keeps.
    static func value(
        _ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String], keptFiles: Bool = true, request: JSONValue = .null,
        recording: JSONValue? = nil, replay: JSONValue? = nil
    ) -> JSONValue {
        render(
            payload: payload, routed: result.routed, outcome: result.outcome, delivered: result.delivered,
            deliveryID: result.deliveryID, receipt: result.receipt.code, attachments: result.content.attachments,
            elapsedMilliseconds: result.elapsed.inMilliseconds, warnings: payloadWarnings + result.warnings,
            imageURL: result.imageURL, trace: result.trace, sharedWith: result.sharedWith, keptFiles: keptFiles, request: request,
            recording: recording, replay: replay)
    }

    /// The line for an input that is not a payload: unreadable, or not a JSON object.
    static func invalid(_ payload: PayloadInput, _ detail: String) -> String { JSONWriter.string(invalidValue(payload, detail)) }

    /// ``invalid(_:_:)``'s line as a value.
    /// `request`: a request whose body is not a payload is still judged (SPEC §12).
    static func invalidValue(_ payload: PayloadInput, _ detail: String, warnings: [String] = [], request: JSONValue = .null) -> JSONValue {
        render(
            payload: payload, routed: false, outcome: Outcome(.invalidPayload, detail), delivered: .original,
            deliveryID: nil, receipt: ReceiptStatus.none.code, attachments: [], elapsedMilliseconds: 0, warnings: warnings,
            imageURL: nil, trace: nil, sharedWith: nil, keptFiles: true, request: request)
    }

    /// Every field of SPEC §6, in its order.
    private static func render(
        payload: PayloadInput, routed: Bool, outcome: Outcome, delivered: Delivered, deliveryID: DeliveryID?, receipt: String,
        attachments: [NotificationAttachment], elapsedMilliseconds: Double, warnings: [String], imageURL: String?,
        trace: DownloadTrace?, sharedWith: String?, keptFiles: Bool, request: JSONValue = .null, recording: JSONValue? = nil,
        replay: JSONValue? = nil
    ) -> JSONValue {
        let files: [JSONValue] = attachments.map { attachment in
            [
                "file": keptFiles ? .string(FileName.jsonText(attachment.path)) : .null, "type": .string(attachment.type.rawValue),
                "bytes": .number(String(attachment.byteCount)),
            ]
        }
        var fields: [(key: String, value: JSONValue)] = [
            (key: "routed", value: .bool(routed)),
            (key: "reason", value: .string(outcome.reason.code)),
            (key: "detail", value: .string(outcome.printedDetail)),
            (key: "delivered", value: .string(delivered.rawValue)),
            (key: "delivery_id", value: deliveryID.map { .string($0.rawValue) } ?? .null),
            (key: "receipt", value: .string(receipt)),
            (key: "attachments", value: .array(files)),
            (key: "elapsed_ms", value: .number(milliseconds(elapsedMilliseconds))),
            (key: "warnings", value: .array(warnings.map { .string($0) })),
            (key: "image_url", value: imageURL.map { .string($0) } ?? .null),
            (key: "trace", value: TraceJSON.value(trace)),
            // SPEC §6a: the payload whose download of the same image this one shared, or null.
            (key: "shared_with", value: sharedWith.map { .string($0) } ?? .null),
            // SPEC §12: the request that carried the payload, null for a payload file.
            (key: "request", value: request),
        ]
        // SPEC §9: last, so that the documented order of the others is untouched.
        if let recording { fields.append((key: "recording", value: recording)) }
        if let replay { fields.append((key: "replay", value: replay)) }
        // A name that is not UTF-8 shows its odd bytes as \xNN in `payload`; the exact bytes ride along.
        return .object(payload.jsonMembers + fields)
    }

    /// Milliseconds with three decimals, as JSON number text (``JSONWriter/milliseconds(_:)``).
    static func milliseconds(_ value: Double) -> String {
        JSONWriter.milliseconds(value)
    }
}
