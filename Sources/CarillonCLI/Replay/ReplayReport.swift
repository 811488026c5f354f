@_spi(Tooling) import CarillonExtensionCore

/// `replay --report FILE.html`: `process`'s page (``HTMLReport``: previews, outcome, waterfall), one card
/// per replayed image, each card with the line's `replay` object as its own section (``ReportSection``).
///
/// A replay's attachments go with each image's runtime (without `--attachments`), so each card's image
/// is read as soon as its line is printed and kept here until the page is written.
struct ReplayReport {
    private var groups = ReportGroups()
    private var outcomes: [(reason: Reason, elapsedMilliseconds: Double)] = []
    /// The embedded images, by the key each card's attachment names instead of its file.
    private var images: [String: [UInt8]] = [:]

    /// Adds one replayed image's card: its result, the line's warnings, and its `replay` object.
    mutating func add(name: String, result: ServiceResult, warnings: [String], replay: JSONValue) {
        var entry = ReportEntry(payload: name, result: result, warnings: warnings)
        entry.sections = [Self.section(replay)]
        if let attachment = entry.attachment {
            let key = "card \(outcomes.count)"
            images[key] = ReportFile.readAttachment(attachment)
            entry.attachment?.path = key
        }
        groups.add(entry, image: result.routed ? result.imageURL : nil)
        outcomes.append((result.outcome.reason, result.elapsed.inMilliseconds))
    }

    /// Writes the page and says so on stderr; false when it could not be written.
    func write(_ plan: PipelinePlan, to path: String, io: ToolIO) -> Bool {
        let page = HTMLReport(
            appName: plan.appName, budgetMilliseconds: plan.budget.inMilliseconds, expireMilliseconds: plan.expireAfter.inMilliseconds,
            command: ReplayCommand.name)
        return ReportFile.write(page, groups: groups, outcomes: outcomes, to: path, io: io) { images[$0.path] }
    }

    /// The `replay` object as a card's section: one row per field, in the line's order.
    static func section(_ replay: JSONValue) -> ReportSection {
        func strings(_ key: String) -> [String] {
            guard case .array(let items)? = replay[key] else { return [] }
            return items.map { $0.stringValue ?? JSONWriter.string($0) }
        }
        func objects(_ key: String, _ line: (JSONValue) -> String) -> [String] {
            guard case .array(let items)? = replay[key] else { return [] }
            return items.map(line)
        }
        let notChecked = objects("not_checked") { "\($0["check"]?.stringValue ?? ""): \($0["why"]?.stringValue ?? "")" }
        let differs = objects("request_differs") { difference in
            let recorded = difference["recorded"]?.stringValue.map { "'\($0)'" } ?? "none"
            let sent = difference["extension"]?.stringValue.map { "'\($0)'" } ?? "none"
            let varies = difference["varies"] == .bool(true) ? " (the response varies on it)" : ""
            return "\(difference["header"]?.stringValue ?? ""): recorded \(recorded), the extension's \(sent)\(varies)"
        }
        return ReportSection(
            title: "replay",
            rows: [
                .init(term: "source", lines: [replay["source"]?.stringValue ?? ""]),
                .init(term: "file", lines: [replay["file"]?.stringValue ?? ""]),
                .init(term: "creator", lines: [replay["creator"]?.stringValue ?? ""]),
                .init(term: "entries", lines: [strings("entries").joined(separator: ", ")].filter { !$0.isEmpty }),
                .init(term: "checked", lines: [strings("checked").joined(separator: ", ")].filter { !$0.isEmpty }),
                .init(term: "not checked", lines: notChecked),
                .init(term: "request differs", lines: differs),
                .init(term: "notes", lines: strings("notes")),
            ])
    }
}
