@_spi(Tooling) import CarillonExtensionCore

/// One payload's card: the preview of what iOS shows, the outcome, and the trace as a waterfall. The
/// element carries `data-payload` and `data-reason`, for the filters and for anyone scripting the page.
enum ReportCard {
    /// - Parameters:
    ///   - imageClass: the ``ReportImages`` class of the attachment, nil when none is shown.
    static func html(
        _ entry: ReportEntry, imageClass: String?, appName: String, budgetMilliseconds: Double, expireMilliseconds: Double
    ) -> String {
        let payload = HTMLEscaping.escape(entry.payload)
        let reason = entry.reason.code
        let kind = entry.reason == .attached ? "ok" : "fallback"
        var html =
            "<article class=\"card \(kind)\(imageClass.map { " " + $0 } ?? "")\" data-payload=\"\(payload)\" data-reason=\"\(reason)\">"
        html += "<h2><span class=\"reason r-\(reason)\">\(reason)</span> <span class=\"path\"><bdi>\(payload)</bdi></span></h2>"
        // Near the top, where they are seen: below a tall preview they were missed.
        if !entry.warnings.isEmpty {
            html += "<ul class=\"warnings\">" + entry.warnings.map { "<li>\(HTMLEscaping.message($0))</li>" }.joined() + "</ul>"
        }
        html += "<div class=\"card-body\">"
        if entry.isNotification && entry.routed {
            html += NotificationPreview.html(
                appName: appName, title: entry.title, subtitle: entry.subtitle, body: entry.body, hasImage: imageClass != nil)
        } else if entry.isNotification {
            html += "<div class=\"preview none\">Not routed: iOS shows the notification as sent and never runs the extension.</div>"
            if !(entry.title.isEmpty && entry.subtitle.isEmpty && entry.body.isEmpty) {
                html += NotificationPreview.html(
                    appName: appName, title: entry.title, subtitle: entry.subtitle, body: entry.body, hasImage: false)
            }
        } else {
            html += "<div class=\"preview none\">Not a notification: the input is not a JSON object.</div>"
        }
        html += outcome(entry)
        html += "</div>"
        html += entry.sections.map(\.html).joined()
        if let trace = entry.trace {
            html += Waterfall.html(trace, budgetMilliseconds: budgetMilliseconds, expireMilliseconds: expireMilliseconds)
        }
        return html + "</article>\n"
    }

    /// The outcome as a list: detail, delivered, receipt, delivery id, elapsed time (the warnings head the card).
    static func outcome(_ entry: ReportEntry) -> String {
        // Each value as HTML: the detail is a message; the delivery id is the payload's own text.
        var rows: [(String, String)] = [
            ("detail", HTMLEscaping.message(entry.detail)),
            ("delivered", entry.delivered.rawValue + (entry.routed ? "" : " (not routed)")),
            ("receipt", HTMLEscaping.escape(entry.receipt)),
            ("delivery id", entry.deliveryID.map(HTMLEscaping.isolated) ?? "none"),
            ("elapsed", ResultLine.milliseconds(entry.elapsedMilliseconds) + " ms"),
        ]
        if let image = entry.trace?.image {
            rows.append(
                ("image", "\(image.type.rawValue) \(image.width)×\(image.height)" + (image.frames > 1 ? ", \(image.frames) frames" : "")))
        }
        var html = "<dl class=\"outcome\">"
        for (name, value) in rows { html += "<dt>\(name)</dt><dd>\(value)</dd>" }
        html += "</dl>"
        return html
    }
}
