@_spi(Tooling) import CarillonExtensionCore

/// Between a run's records and a bundle's (SPEC §6c): what a bundle keeps of one payload
/// (``BundledPayload``, whose keys are the core's) made from its line, and the payload's record read back
/// from it as an unsharded run's tally would have taken it, its request's counts and `--fail-on` verdict
/// included. The line itself is parsed only for a record whose trace or whole card is wanted (an image's
/// first verdict, the report's cards).
enum BundleRecord {
    /// What the bundle keeps of a payload whose line is `line` (``BundledPayload``, the format's own type).
    static func payload(
        line: JSONValue, content: NotificationContent?, read: Bool, request: RequestTally.Record?, input: PayloadInput
    ) -> BundledPayload? {
        guard case .string(let name)? = line["payload"], case .string(let code)? = line["reason"], let reason = Reason(rawValue: code),
            case .string(let detail)? = line["detail"], case .number(let elapsedText)? = line["elapsed_ms"],
            let elapsed = Double(elapsedText)
        else { return nil }
        var attachment: BundledPayload.Attachment?
        if case .array(let files)? = line["attachments"], let file = files.first, case .string(let typeText)? = file["type"],
            let type = ImageType(rawValue: typeText), let bytes = ResultBundle.count(file["bytes"])
        {
            attachment = BundledPayload.Attachment(type: type, byteCount: bytes)
        }
        let source: BundledPayload.Source =
            switch input {
            case .line: .line
            case .made: .made
            case .file, .standardInput: .file
            }
        return BundledPayload(
            name: name, read: read, source: source, reason: reason, detail: detail, elapsedMilliseconds: elapsed,
            imageURL: line["image_url"]?.stringValue, routed: line["routed"] == .bool(true),
            receiptFailed: line["receipt"] == .string("failed"), attachment: attachment,
            alert: content.map { BundledPayload.Alert(title: $0.title, subtitle: $0.subtitle, body: $0.body) },
            request: request.map {
                BundledPayload.Request(
                    apnsReason: $0.apnsReason, refused: $0.refused, extensionRuns: $0.extensionRuns, notShown: $0.notShown)
            })
    }

    /// A record read back.
    struct Decoded {
        /// The line as `process` printed it.
        var line: [UInt8]
        var record: PayloadRecord
        /// Whether the input was read as a JSON object.
        var read: Bool
        /// The bundle's attachment the report shows, by index.
        var attachment: Int?
        /// The payload's `carillon.image`, routed or not: JUnit's classname.
        var imageURL: String?
    }

    /// The record of `payload` and its `line`; nil when the line is not what a bundle writer makes. `whole`:
    /// the line is parsed for the trace and the whole card (else the record has no trace, and its card
    /// is a report's row). `attachmentPath` names the attachment for ``ReportEntry/Attachment/path`` (the
    /// merge reads it from its bundle when shown).
    static func decode(
        _ payload: BundledPayload, line: [UInt8], whole: Bool, failOn: FailOn?, collectsReport: Bool, attachmentPath: (Int) -> String
    ) -> Decoded? {
        var parsed: JSONValue?
        if whole {
            guard let value = try? JSONParser.parse(line), case .object = value else { return nil }
            parsed = value
        }
        let name = payload.name
        var attachment: NotificationAttachment?
        if let file = payload.attachment {
            attachment = NotificationAttachment(
                identifier: name, path: file.index.map(attachmentPath) ?? "", type: file.type, byteCount: file.byteCount)
        }
        let trace = TraceJSON.decode(parsed?["trace"])
        let outcome = Outcome(payload.reason, payload.detail)
        var entry: ReportEntry?
        if collectsReport {
            if !payload.read {
                entry = ReportEntry(invalid: name, detail: payload.detail)
            } else if let parsed {
                entry = Self.entry(payload, line: parsed, outcome: outcome, attachment: attachment, trace: trace)
            } else {
                entry = ReportEntry(
                    payload: name, reason: payload.reason, detail: payload.detail, elapsedMilliseconds: payload.elapsedMilliseconds)
            }
        }
        let request = payload.request.map {
            RequestTally.Record(apnsReason: $0.apnsReason, refused: $0.refused, extensionRuns: $0.extensionRuns, notShown: $0.notShown)
        }
        var verdict = JUnitXML.verdict(reason: payload.reason, namesImage: payload.imageURL != nil, failOn: failOn)
        // As the run decided it: a request's condition named by --fail-on fails its test case.
        if let failOn, let request, failOn.matches(request.conditions) { verdict = .failure }
        var record = PayloadRecord(
            name: name, outcome: outcome, elapsedMilliseconds: payload.elapsedMilliseconds, image: payload.routedImage,
            sharedWith: parsed?["shared_with"]?.stringValue, trace: trace, attachment: attachment, entry: entry, verdict: verdict,
            receiptFailed: payload.receiptFailed)
        record.request = request
        record.fromLines = payload.read && payload.source == .line
        record.madeByTool = payload.source == .made && request == nil
        return Decoded(line: line, record: record, read: payload.read, attachment: payload.attachment?.index, imageURL: payload.imageURL)
    }

    /// The report's whole card of a read payload, as ``ReportEntry/init(payload:result:warnings:)`` made it.
    private static func entry(
        _ payload: BundledPayload, line: JSONValue, outcome: Outcome, attachment: NotificationAttachment?, trace: DownloadTrace?
    ) -> ReportEntry {
        var warnings: [String] = []
        if case .array(let values)? = line["warnings"] { warnings = values.compactMap(\.stringValue) }
        var entry = ReportEntry(
            payload: payload.name, reason: outcome.reason, detail: outcome.detail,
            title: payload.alert?.title ?? "", subtitle: payload.alert?.subtitle ?? "", body: payload.alert?.body ?? "",
            warnings: warnings, receipt: line["receipt"]?.stringValue ?? ReceiptStatus.none.code,
            deliveryID: line["delivery_id"]?.stringValue,
            elapsedMilliseconds: payload.elapsedMilliseconds,
            attachment: attachment.map { ReportEntry.Attachment(path: $0.path, type: $0.type, byteCount: $0.byteCount) }, trace: trace,
            routed: payload.routed)
        entry.delivered = line["delivered"]?.stringValue.flatMap(Delivered.init(rawValue:)) ?? entry.delivered
        return entry
    }
}
