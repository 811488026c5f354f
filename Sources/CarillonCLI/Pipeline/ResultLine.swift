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
        var output = JSONTextOutput()
        write(payload, result: result, payloadWarnings: payloadWarnings, keptFiles: keptFiles, request: request, to: &output)
        return finish(&output, recording: recording, replay: replay)
    }

    /// ``make(_:result:payloadWarnings:keptFiles:request:recording:replay:)``'s line as a value: what a recording
    /// keeps as its verdict, and what a `--bundle` keeps.
    static func value(
        _ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String], keptFiles: Bool = true, request: JSONValue = .null,
        recording: JSONValue? = nil, replay: JSONValue? = nil
    ) -> JSONValue {
        var output = JSONValueBuilder()
        write(payload, result: result, payloadWarnings: payloadWarnings, keptFiles: keptFiles, request: request, to: &output)
        return finish(&output, recording: recording, replay: replay)
    }

    /// The line for an input that is not a payload: unreadable, or not a JSON object.
    static func invalid(_ payload: PayloadInput, _ detail: String, warnings: [String] = [], request: JSONValue = .null) -> String {
        var output = JSONTextOutput()
        writeInvalid(payload, detail, warnings: warnings, request: request, to: &output)
        return finish(&output)
    }

    /// ``invalid(_:_:)``'s line as a value.
    /// `request`: a request whose body is not a payload is still judged (SPEC §12).
    static func invalidValue(_ payload: PayloadInput, _ detail: String, warnings: [String] = [], request: JSONValue = .null) -> JSONValue {
        var output = JSONValueBuilder()
        writeInvalid(payload, detail, warnings: warnings, request: request, to: &output)
        return finish(&output)
    }

    /// A payload's line up to `request`, its object left open for ``finish(_:recording:replay:)``.
    private static func write<Output: JSONOutput>(
        _ payload: PayloadInput, result: ServiceResult, payloadWarnings: [String], keptFiles: Bool, request: JSONValue,
        to output: inout Output
    ) {
        render(
            payload: payload, routed: result.routed, outcome: result.outcome, delivered: result.delivered,
            deliveryID: result.deliveryID, receipt: result.receipt.code, attachments: result.content.attachments,
            elapsedMilliseconds: result.elapsed.inMilliseconds, warnings: [payloadWarnings, result.warnings],
            imageURL: result.imageURL, trace: result.trace, sharedWith: result.sharedWith, keptFiles: keptFiles, request: request,
            to: &output)
    }

    private static func writeInvalid<Output: JSONOutput>(
        _ payload: PayloadInput, _ detail: String, warnings: [String], request: JSONValue, to output: inout Output
    ) {
        render(
            payload: payload, routed: false, outcome: Outcome(.invalidPayload, detail), delivered: .original,
            deliveryID: nil, receipt: ReceiptStatus.none.code, attachments: [], elapsedMilliseconds: 0, warnings: [warnings],
            imageURL: nil, trace: nil, sharedWith: nil, keptFiles: true, request: request, to: &output)
    }

    /// SPEC §9's members, last, so that the documented order of the others is untouched; the object closed.
    private static func finish(_ output: inout JSONTextOutput, recording: JSONValue? = nil, replay: JSONValue? = nil) -> String {
        close(&output, recording: recording, replay: replay)
        return output.text
    }

    private static func finish(_ output: inout JSONValueBuilder, recording: JSONValue? = nil, replay: JSONValue? = nil) -> JSONValue {
        close(&output, recording: recording, replay: replay)
        return output.value
    }

    private static func close<Output: JSONOutput>(_ output: inout Output, recording: JSONValue?, replay: JSONValue?) {
        if let recording {
            output.key("recording")
            output.value(recording)
        }
        if let replay {
            output.key("replay")
            output.value(replay)
        }
        output.endObject()
    }

    /// Every field of SPEC §6, in its order (the object left open). `warnings`: the payload's, then the
    /// result's.
    private static func render<Output: JSONOutput>(
        payload: PayloadInput, routed: Bool, outcome: Outcome, delivered: Delivered, deliveryID: DeliveryID?, receipt: String,
        attachments: [NotificationAttachment], elapsedMilliseconds: Double, warnings: [[String]], imageURL: String?,
        trace: DownloadTrace?, sharedWith: String?, keptFiles: Bool, request: JSONValue, to output: inout Output
    ) {
        output.beginObject()
        // A name that is not UTF-8 shows its odd bytes as \xNN in `payload`; the exact bytes ride along.
        output.key("payload")
        output.string(payload.name)
        if let bytes = payload.nameBytes {
            output.key("payload_base64")
            output.string(Base64.encode(bytes))
        }
        output.key("routed")
        output.bool(routed)
        output.key("reason")
        output.string(outcome.reason.code)
        output.key("detail")
        output.string(outcome.printedDetail)
        output.key("delivered")
        output.string(delivered.rawValue)
        output.key("delivery_id")
        output.string(orNull: deliveryID?.rawValue)
        output.key("receipt")
        output.string(receipt)
        output.key("attachments")
        output.beginArray()
        for attachment in attachments {
            output.beginObject()
            output.key("file")
            output.string(orNull: keptFiles ? FileName.jsonText(attachment.path) : nil)
            output.key("type")
            output.string(attachment.type.rawValue)
            output.key("bytes")
            output.integer(attachment.byteCount)
            output.endObject()
        }
        output.endArray()
        output.key("elapsed_ms")
        output.milliseconds(elapsedMilliseconds)
        output.key("warnings")
        output.beginArray()
        for list in warnings { for warning in list { output.string(warning) } }
        output.endArray()
        output.key("image_url")
        output.string(orNull: imageURL)
        output.key("trace")
        TraceJSON.write(trace, to: &output)
        // SPEC §6a: the payload whose download of the same image this one shared, or null.
        output.key("shared_with")
        output.string(orNull: sharedWith)
        // SPEC §12: the request that carried the payload, null for a payload file.
        output.key("request")
        output.value(request)
    }

    /// Milliseconds with three decimals, as JSON number text (``JSONWriter/milliseconds(_:)``).
    static func milliseconds(_ value: Double) -> String {
        JSONWriter.milliseconds(value)
    }
}
