@_spi(Tooling) import CarillonExtensionCore

/// The text view's lines for a request (`--format text`): APNs' verdict and what it leaves open, the
/// extension's, and where the image shows.
enum RequestText {
    static func lines(_ request: APNsRequest, _ judgement: RequestJudgement) -> [String] {
        let apns = judgement.apns
        let via = request.sender == .fcm ? ", sent through FCM" : ""
        var lines = ["  apns (\(request.form.rawValue)\(via)): \(apns.reason)\(apns.status.map { " \($0)" } ?? "") — \(apns.detail)"]
        for item in apns.unknown { lines.append("    unknown: \(item)") }
        let verdict = judgement.extensionVerdict
        lines.append("  extension \(verdict.runs ? "runs" : "does not run") — \(verdict.why)")
        if let shown = judgement.shown {
            let values = ImageSurfaces.Surface.allCases.map { "\(name($0)) \(shown[$0].value.rawValue)" }
            lines.append("  image shows: " + values.joined(separator: ", "))
            for surface in ImageSurfaces.Surface.allCases where shown[surface].value != .shown {
                lines.append("    \(name(surface)): \(shown[surface].why)")
            }
        }
        return lines
    }

    /// A surface as a person says it.
    static func name(_ surface: ImageSurfaces.Surface) -> String {
        surface == .lockScreen ? "lock screen" : surface.rawValue
    }
}
