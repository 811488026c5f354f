@_spi(Tooling) import CarillonExtensionCore

/// What a bundle keeps of one payload (SPEC §6c), and the payload's record read back from it. The
/// bundle holds the line as `process` printed it, copied out by a merge without parsing, and beside it
/// what the merge's tally takes of every payload — its name, reason, detail, time, image, attachment,
/// whether it was read — and the alert's text for the report's preview. The line itself is parsed only
/// for a record whose trace or whole card is wanted (an image's first verdict, the report's cards).
enum BundleRecord {
    /// The bundle's `data` for a payload whose line is `line`.
    static func data(line: JSONValue, content: NotificationContent?, read: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [(key: "read", value: .bool(read))]
        for key in ["payload", "reason", "detail", "elapsed_ms", "image_url", "routed"] {
            members.append((key: key, value: line[key] ?? .null))
        }
        members.append((key: "receipt_failed", value: .bool(line["receipt"] == .string("failed"))))
        if case .array(let files)? = line["attachments"], let file = files.first {
            members.append(
                (
                    key: "attachment",
                    value: .object([(key: "type", value: file["type"] ?? .null), (key: "bytes", value: file["bytes"] ?? .null)])
                ))
        }
        if let content {
            members += [
                (key: "title", value: .string(content.title)), (key: "subtitle", value: .string(content.subtitle)),
                (key: "body", value: .string(content.body)),
            ]
        }
        return .object(members)
    }

    /// `data` with the index of the bundle's attachment its report card shows.
    static func adding(attachment index: Int, to data: JSONValue) -> JSONValue {
        guard case .object(let members) = data else { return data }
        return .object(members + [(key: "attachment_index", value: .number(String(index)))])
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

    /// What the tally takes of a record: whether it names a routed image, and its reason; nil when `data`
    /// is not a record a bundle writer makes.
    static func summary(_ data: JSONValue) -> (image: String?, reason: Reason)? {
        guard case .string(let code)? = data["reason"], let reason = Reason(rawValue: code) else { return nil }
        return (data["routed"] == .bool(true) ? data["image_url"]?.stringValue : nil, reason)
    }

    /// The record of `data` and its `line`; nil when they are not what a bundle writer makes. `whole`:
    /// the line is parsed for the trace and the whole card (else the record has no trace, and its card
    /// is a report's row). `attachmentPath` names the attachment for ``ReportEntry/Attachment/path`` (the
    /// merge reads it from its bundle when shown).
    static func decode(
        _ data: JSONValue, line: [UInt8], whole: Bool, failOn: FailOn?, collectsReport: Bool, attachmentPath: (Int) -> String
    ) -> Decoded? {
        guard case .string(let name)? = data["payload"], let (image, reason) = summary(data), case .string(let detail)? = data["detail"],
            case .bool(let read)? = data["read"], case .number(let elapsedText)? = data["elapsed_ms"], let elapsed = Double(elapsedText)
        else { return nil }
        var parsed: JSONValue?
        if whole {
            guard let value = try? JSONParser.parse(line), case .object = value else { return nil }
            parsed = value
        }
        let imageURL = data["image_url"]?.stringValue
        let attachmentIndex = ResultBundle.count(data["attachment_index"])
        var attachment: NotificationAttachment?
        if let file = data["attachment"], case .string(let typeText)? = file["type"], let type = ImageType(rawValue: typeText),
            let bytes = ResultBundle.count(file["bytes"])
        {
            attachment = NotificationAttachment(
                identifier: name, path: attachmentIndex.map(attachmentPath) ?? "", type: type, byteCount: bytes)
        }
        let trace = TraceJSON.decode(parsed?["trace"])
        let outcome = Outcome(reason, detail)
        var entry: ReportEntry?
        if collectsReport {
            if !read {
                entry = ReportEntry(invalid: name, detail: detail)
            } else if let parsed {
                entry = Self.entry(data, line: parsed, outcome: outcome, elapsed: elapsed, attachment: attachment, trace: trace)
            } else {
                entry = ReportEntry(payload: name, reason: reason, detail: detail, elapsedMilliseconds: elapsed)
            }
        }
        let record = PayloadRecord(
            name: name, outcome: outcome, elapsedMilliseconds: elapsed, image: image, sharedWith: parsed?["shared_with"]?.stringValue,
            trace: trace, attachment: attachment, entry: entry,
            verdict: JUnitXML.verdict(reason: reason, namesImage: imageURL != nil, failOn: failOn),
            receiptFailed: data["receipt_failed"] == .bool(true))
        return Decoded(line: line, record: record, read: read, attachment: attachmentIndex, imageURL: imageURL)
    }

    /// The report's whole card of a read payload, as ``ReportEntry/init(payload:result:warnings:)`` made it.
    private static func entry(
        _ data: JSONValue, line: JSONValue, outcome: Outcome, elapsed: Double, attachment: NotificationAttachment?, trace: DownloadTrace?
    ) -> ReportEntry {
        var warnings: [String] = []
        if case .array(let values)? = line["warnings"] { warnings = values.compactMap(\.stringValue) }
        var entry = ReportEntry(
            payload: data["payload"]?.stringValue ?? "", reason: outcome.reason, detail: outcome.detail,
            title: data["title"]?.stringValue ?? "", subtitle: data["subtitle"]?.stringValue ?? "", body: data["body"]?.stringValue ?? "",
            warnings: warnings, receipt: line["receipt"]?.stringValue ?? ReceiptStatus.none.code,
            deliveryID: line["delivery_id"]?.stringValue,
            elapsedMilliseconds: elapsed,
            attachment: attachment.map { ReportEntry.Attachment(path: $0.path, type: $0.type, byteCount: $0.byteCount) }, trace: trace,
            routed: data["routed"] == .bool(true))
        entry.delivered = line["delivered"]?.stringValue.flatMap(Delivered.init(rawValue:)) ?? entry.delivered
        return entry
    }
}
