@_spi(Tooling) import CarillonExtensionCore

/// The `--report` page: self-contained HTML with a strict Content-Security-Policy (nothing is fetched:
/// no font, script or image from anywhere; images are `data:` URIs), a header with the run's summary
/// and filters by reason (radio buttons and CSS, so no script at all), then one card per payload in
/// input order.
struct HTMLReport {
    var appName = HTMLReport.defaultAppName
    var budgetMilliseconds: Double
    var expireMilliseconds: Double
    /// The command the header names ("process", "replay").
    var command = "process"

    static let defaultAppName = "Carillon"

    /// No script, no connection, no frame, no form; images only as `data:`, styles only inline.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

    /// The whole page.
    /// - Parameter readImage: an attachment's bytes, or nil when it is not embedded (unreadable, or over
    ///   ``ReportFile/maximumEmbeddedImageBytes``): its card then shows no image, and says so in its
    ///   warnings.
    func render(_ entries: [ReportEntry], readImage: (ReportEntry.Attachment) -> [UInt8]?) -> String {
        var images = ReportImages()
        var cards = ""
        cards.reserveCapacity(entries.count * 3000)
        for entry in entries { cards += card(entry, images: &images, readImage: readImage) }
        let summary = RunSummary(entries.map { (reason: $0.reason, elapsedMilliseconds: $0.elapsedMilliseconds) })
        return document(
            title: "\(entries.count) payload\(entries.count == 1 ? "" : "s")", css: [], summary: summary, count: entries.count,
            imagesCSS: images.css, main: cards)
    }

    /// One payload's card, its attachment embedded once in `images` (or a warning saying why not).
    func card(_ entry: ReportEntry, images: inout ReportImages, readImage: (ReportEntry.Attachment) -> [UInt8]?) -> String {
        var entry = entry
        var imageClass: String?
        if let attachment = entry.attachment {
            if let bytes = readImage(attachment) {
                imageClass = images.add(
                    bytes, type: attachment.type, width: entry.trace?.image?.width, height: entry.trace?.image?.height)
            } else {
                entry.warnings.insert(Self.leftOut(attachment), at: 0)
            }
        }
        return ReportCard.html(
            entry, imageClass: imageClass, appName: appName, budgetMilliseconds: budgetMilliseconds,
            expireMilliseconds: expireMilliseconds)
    }

    /// Why an attachment is not on the page, and its size: over the embed limit, or unreadable.
    static func leftOut(_ attachment: ReportEntry.Attachment, limit: Int = ReportFile.maximumEmbeddedImageBytes) -> String {
        let what = "report: the \(attachment.type.rawValue) attachment (\(attachment.byteCount) bytes) is not shown on this page"
        if attachment.byteCount > limit { return what + ": it is over the page's \(limit / 1_048_576) MiB embed limit" }
        return what + ": its file could not be read"
    }

    /// The page around `main`, the same for both layouts: the policy, the style (`css` between the shared
    /// rules and the filters'), the filter inputs and the header.
    func document(title: String, css: [String], summary: RunSummary, count: Int, imagesCSS: String, main: String) -> String {
        let style = ([ReportStyle.css] + css + [Self.filterCSS(summary), imagesCSS]).joined(separator: "\n")
        var page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width,initial-scale=1">
            <meta name="generator" content="carillon-nse \(CarillonVersion.current)">
            <title>carillon-nse report: \(title)</title>
            <style>
            \(style)</style></head><body>

            """
        page += Self.filterInputs(summary)
        page += header(summary, count: count)
        page += "<main>\n" + main + "</main></body></html>\n"
        return page
    }

    /// One hidden radio button per reason (and "all"): siblings of `main`, so that CSS alone can hide
    /// the other cards.
    static func filterInputs(_ summary: RunSummary) -> String {
        var html = "<input class=\"filter-input\" type=\"radio\" name=\"filter\" id=\"f-all\" checked>"
        for (reason, _) in summary.counts {
            html += "<input class=\"filter-input\" type=\"radio\" name=\"filter\" id=\"f-\(reason.code)\">"
        }
        return html + "\n"
    }

    /// For each reason: while its button is checked, cards of other reasons are hidden and its label
    /// is highlighted.
    static func filterCSS(_ summary: RunSummary) -> String {
        var css = "#f-all:checked~header label[for=f-all]{background:#f5f5f7;color:#26292f}\n"
        for (reason, _) in summary.counts {
            let code = reason.code
            css +=
                "#f-\(code):checked~main .card:not([data-reason=\"\(code)\"]),#f-\(code):checked~main tr[data-r]:not([data-r=\(code)]){display:none}"
                + "#f-\(code):checked~header label[for=f-\(code)]{background:#f5f5f7;color:#26292f}\n"
        }
        return css
    }

    /// The run's summary, as the stderr summary line gives it, and the filter labels with their counts.
    func header(_ summary: RunSummary, count: Int) -> String {
        var html = "<header><h1>carillon-nse \(command): \(count) payload\(count == 1 ? "" : "s")</h1>"
        html +=
            "<p class=\"stats\">elapsed_ms median \(ResultLine.milliseconds(summary.medianMilliseconds)), "
            + "p95 \(ResultLine.milliseconds(summary.p95Milliseconds)) · budget \(Waterfall.seconds(budgetMilliseconds))"
            + " · time-will-expire \(Waterfall.seconds(expireMilliseconds)) · app name \(HTMLEscaping.escape(appName))</p>"
        html += "<nav class=\"filters\"><label for=\"f-all\">all \(count)</label>"
        for (reason, number) in summary.counts {
            html += "<label for=\"f-\(reason.code)\">\(reason.code) \(number)</label>"
        }
        html += "</nav><p class=\"stats legend\">"
        for phase in Waterfall.Phase.allCases {
            html += "<span><i class=\"seg \(phase.rawValue)\"></i>\(phase.rawValue)</span>"
        }
        html += "<span><i class=\"mark budget\"></i>budget</span><span><i class=\"mark expire\"></i>time-will-expire</span></p></header>\n"
        return html
    }
}
