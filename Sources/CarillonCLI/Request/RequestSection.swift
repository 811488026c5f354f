@_spi(Tooling) import CarillonExtensionCore

/// The report card's request section: the form, APNs' verdict, the extension's, and each surface with
/// whether the image shows there and why (SPEC §12).
enum RequestSection {
    static func section(_ request: APNsRequest, _ judgement: RequestJudgement) -> ReportSection {
        let apns = judgement.apns
        var rows = [
            ReportSection.Row(term: "form", lines: [request.form.rawValue + (request.sender == .fcm ? ", sent to APNs by FCM" : "")]),
            ReportSection.Row(
                term: "APNs",
                lines: ["\(apns.reason)\(apns.status.map { " \($0)" } ?? ""): \(apns.detail)"] + apns.unknown.map { "unknown: \($0)" }),
            ReportSection.Row(
                term: "extension",
                lines: ["\(judgement.extensionVerdict.runs ? "runs" : "does not run"): \(judgement.extensionVerdict.why)"]),
        ]
        if let shown = judgement.shown {
            for surface in ImageSurfaces.Surface.allCases {
                let placement = shown[surface]
                rows.append(
                    ReportSection.Row(
                        term: RequestText.name(surface),
                        lines: ["\(placement.value.rawValue): \(placement.why) (\(placement.rule.source.title))"]))
            }
        } else {
            rows.append(ReportSection.Row(term: "image shows", lines: ["nowhere: " + nowhere(judgement)]))
        }
        return ReportSection(title: "request", rows: rows)
    }

    /// Why the image shows on no surface: the request is refused, the extension does not run on the
    /// device (whatever the pipeline attached), or nothing was attached.
    static func nowhere(_ judgement: RequestJudgement) -> String {
        if judgement.apns.refused {
            return judgement.apns.status == nil ? "FCM refuses the message" : "APNs refuses the request (\(judgement.apns.reason))"
        }
        if !judgement.extensionVerdict.runs { return "the extension does not run: \(judgement.extensionVerdict.why)" }
        return "nothing is attached"
    }
}
