@_spi(Tooling) import CarillonExtensionCore

/// What a JUnit `<failure>` says when `--fail-on`'s request condition is what failed (SPEC §12): the
/// reason APNs (or FCM) answers and why, or `not-shown` and the surfaces. Pure.
enum RequestFailure {
    /// The failure's type and message, or nil when no request condition `failOn` names holds.
    static func of(_ judgement: RequestJudgement, failOn: FailOn) -> (type: String, message: String)? {
        let conditions = failOn.requestConditions
        if conditions.contains(.apnsRefused), judgement.apns.refused {
            let type = judgement.apns.status == nil ? "fcm-invalid-argument" : judgement.apns.reason
            return (type, judgement.apns.detail)
        }
        if conditions.contains(.notShown), let shown = judgement.shown, shown.anyNotShown {
            let surfaces = ImageSurfaces.Surface.allCases.filter { shown[$0].value == .notShown }
            let message = surfaces.map { "\(RequestText.name($0)): \(shown[$0].why)" }.joined(separator: "; ")
            return (FailOn.RequestCondition.notShown.rawValue, "the image is not shown on the " + message)
        }
        return nil
    }
}
