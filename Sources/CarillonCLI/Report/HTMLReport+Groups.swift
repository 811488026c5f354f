@_spi(Tooling) import CarillonExtensionCore

extension HTMLReport {
    /// The page for a campaign: the plain one (a card per payload, in input order) for up to
    /// ``ReportGroups/plainLimit`` payloads, else one section per image with its first cards, then a
    /// compact row for each of its other payloads. `outcomes` are every payload's, for the header's summary.
    func render(
        _ groups: ReportGroups, outcomes: [(reason: Reason, elapsedMilliseconds: Double)], readImage: (ReportEntry.Attachment) -> [UInt8]?
    ) -> String {
        if groups.isComplete { return render(groups.entriesInInputOrder, readImage: readImage) }
        var images = ReportImages()
        var sections = ""
        let shown = groups.cardsShown
        for group in groups.groups {
            sections += Self.groupHeading(group)
            for entry in group.cards.prefix(shown) { sections += card(entry, images: &images, readImage: readImage) }
            let rows =
                group.cards.dropFirst(shown).map {
                    ReportGroups.Row(
                        payload: $0.payload, reason: $0.reason, detail: $0.detail,
                        elapsedMilliseconds: $0.elapsedMilliseconds)
                } + group.rows
            if !rows.isEmpty { sections += Self.rowsTable(rows) }
            sections += "</section>\n"
        }
        let summary = RunSummary(outcomes)
        return document(
            title: "\(groups.payloads) payloads, \(groups.groups.count) groups", css: [Self.groupCSS], summary: summary,
            count: groups.payloads, imagesCSS: images.css, main: sections)
    }

    /// Every other payload of a group, one compact row each: its name and time, and its reason and
    /// detail only where they differ from the row above (a campaign's rows mostly repeat them): a blank
    /// reason's row above has the same reason, so a filter by reason never hides it. The row's reason is
    /// also its `data-r`, for the filters; each cell is isolated by the style (`unicode-bidi:isolate`, as
    /// `<bdi>` does elsewhere) rather than by an element per name.
    static func rowsTable(_ rows: [ReportGroups.Row]) -> String {
        // Rows of one JSON Lines file (`FILE:LINE`, the usual campaign) name FILE once, in the heading.
        let file = sharedFile(rows)
        let heading = file.map { "line of " + HTMLEscaping.isolated($0) } ?? "payload"
        var html = "<table class=\"rows\"><tr><th>\(heading)</th><th>elapsed_ms</th><th>reason (blank: as above)</th><th>detail</th></tr>\n"
        html.reserveCapacity(html.utf8.count + rows.count * 40)
        let dropped = file.map { $0.count + 1 } ?? 0
        var previous: (reason: Reason, detail: String)?
        for row in rows {
            let code = row.reason.code
            let name = dropped == 0 ? HTMLEscaping.escape(row.payload) : String(row.payload.dropFirst(dropped))
            html += "<tr data-r=\(code)><td>\(name)<td>\(ResultLine.milliseconds(row.elapsedMilliseconds))"
            if previous?.reason != row.reason || previous?.detail != row.detail {
                html += "<td>\(code)<td>\(HTMLEscaping.escape(Quoting.display(row.detail)))"
                previous = (row.reason, row.detail)
            }
            html += "\n"
        }
        return html + "</table>\n"
    }

    /// The FILE every row's payload is a line of (`FILE:LINE`, LINE all digits), or nil.
    static func sharedFile(_ rows: [ReportGroups.Row]) -> String? {
        guard let first = rows.first, let colon = first.payload.lastIndex(of: ":") else { return nil }
        let file = first.payload[..<colon]
        let isLine = { (payload: String) -> Bool in
            payload.count > file.count + 1 && payload.hasPrefix(file)
                && payload[payload.index(payload.startIndex, offsetBy: file.count)] == ":"
                && payload.dropFirst(file.count + 1).allSatisfy { $0.isASCII && $0.isNumber }
        }
        return rows.allSatisfy { isLine($0.payload) } ? String(file) : nil
    }

    /// A group's heading: the image (or the reason, without one), its payloads and their reasons.
    static func groupHeading(_ group: ReportGroups.Group) -> String {
        let title = group.image.map { "image " + HTMLEscaping.isolated($0) } ?? "no image fetched: \(group.reason.code)"
        let reasons = group.reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.code < $1.key.code }
            .map { "\($0.value) \($0.key.code)" }.joined(separator: ", ")
        return "<section class=\"group\"><h2 class=\"group-title\">\(title)</h2><p class=\"stats\">\(group.payloads) payload"
            + "\(group.payloads == 1 ? "" : "s"): \(reasons)</p>\n"
    }

    static let groupCSS = """
        .group{margin:0 0 24px}.group-title{font-size:15px;word-break:break-all}
        table.rows{border-collapse:collapse;font:12px ui-monospace,monospace;margin:8px 0;width:100%}
        table.rows td,table.rows th{border-bottom:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top;unicode-bidi:isolate}
        .more{color:#666}
        """
}
