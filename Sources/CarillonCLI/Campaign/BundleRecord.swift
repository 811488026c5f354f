@_spi(Tooling) import CarillonExtensionCore

/// What a bundle keeps of one payload (SPEC §6c), and the payload's record read back from it: the JSON
/// line as `process` prints it, whether the input was read, the alert's text (the report's preview) and
/// the attachment the report embeds. A merge rebuilds from it exactly what an unsharded run's tally
/// takes: the line, the summary's image, the report's card, the JUnit case.
enum BundleRecord {
    /// The bundle's `data` for a payload.
    static func data(line: JSONValue, content: NotificationContent?, read: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "line", value: line), (key: "read", value: .bool(read))]
        if let content {
            members += [
                (key: "title", value: .string(content.title)), (key: "subtitle", value: .string(content.subtitle)),
                (key: "body", value: .string(content.body)),
            ]
        }
        return .object(members)
    }

    /// `data` with the index of the attachment it shows.
    static func adding(attachment index: Int, to data: JSONValue) -> JSONValue {
        guard case .object(let members) = data else { return data }
        return .object(members + [(key: "attachment", value: .number(String(index)))])
    }

    /// A record read back.
    struct Decoded {
        /// The line as `process` printed it (written out only where the lines go somewhere).
        var line: JSONValue
        var record: PayloadRecord
        /// Whether the input was read as a JSON object.
        var read: Bool
        /// The bundle's attachment the report shows, by index.
        var attachment: Int?
        /// The payload's `carillon.image`, routed or not: JUnit's classname.
        var imageURL: String?
    }

    /// The record of `data`; nil when it is not one a bundle writer makes. `attachmentPath` names the
    /// attachment for ``ReportEntry/Attachment/path`` (the merge reads it from its bundle when shown).
    static func decode(
        _ data: JSONValue, failOn: FailOn?, collectsReport: Bool, attachmentPath: (Int) -> String
    ) -> Decoded? {
        guard let line = data["line"], case .string(let name)? = line["payload"], case .string(let code)? = line["reason"],
            let reason = Reason(rawValue: code), case .string(let detail)? = line["detail"], case .bool(let read)? = data["read"],
            case .number(let elapsedText)? = line["elapsed_ms"], let elapsed = Double(elapsedText)
        else { return nil }
        let imageURL = line["image_url"]?.stringValue
        let routed = line["routed"] == .bool(true)
        let attachmentIndex = ResultBundle.count(data["attachment"])
        var attachment: NotificationAttachment?
        if case .array(let files)? = line["attachments"], let file = files.first, case .string(let typeText)? = file["type"],
            let type = ImageType(rawValue: typeText), let bytes = ResultBundle.count(file["bytes"])
        {
            attachment = NotificationAttachment(
                identifier: name, path: attachmentIndex.map(attachmentPath) ?? "", type: type, byteCount: bytes)
        }
        let trace = TraceJSON.decode(line["trace"])
        let outcome = Outcome(reason, detail)
        var entry: ReportEntry?
        if collectsReport {
            entry =
                read
                ? Self.entry(data, line: line, name: name, outcome: outcome, elapsed: elapsed, attachment: attachment, trace: trace)
                : ReportEntry(invalid: name, detail: detail)
        }
        let record = PayloadRecord(
            name: name, outcome: outcome, elapsedMilliseconds: elapsed, image: routed ? imageURL : nil,
            sharedWith: line["shared_with"]?.stringValue, trace: trace, attachment: attachment, entry: entry,
            verdict: JUnitXML.verdict(reason: reason, namesImage: imageURL != nil, failOn: failOn),
            receiptFailed: line["receipt"] == .string("failed"))
        return Decoded(line: line, record: record, read: read, attachment: attachmentIndex, imageURL: imageURL)
    }

    /// The report's card of a read payload, as ``ReportEntry/init(payload:result:warnings:)`` made it.
    private static func entry(
        _ data: JSONValue, line: JSONValue, name: String, outcome: Outcome, elapsed: Double, attachment: NotificationAttachment?,
        trace: DownloadTrace?
    ) -> ReportEntry {
        var warnings: [String] = []
        if case .array(let values)? = line["warnings"] { warnings = values.compactMap(\.stringValue) }
        var entry = ReportEntry(
            payload: name, reason: outcome.reason, detail: outcome.detail, title: data["title"]?.stringValue ?? "",
            subtitle: data["subtitle"]?.stringValue ?? "", body: data["body"]?.stringValue ?? "", warnings: warnings,
            receipt: line["receipt"]?.stringValue ?? ReceiptStatus.none.code, deliveryID: line["delivery_id"]?.stringValue,
            elapsedMilliseconds: elapsed,
            attachment: attachment.map { ReportEntry.Attachment(path: $0.path, type: $0.type, byteCount: $0.byteCount) }, trace: trace,
            routed: line["routed"] == .bool(true))
        entry.delivered = line["delivered"]?.stringValue.flatMap(Delivered.init(rawValue:)) ?? entry.delivered
        return entry
    }
}
