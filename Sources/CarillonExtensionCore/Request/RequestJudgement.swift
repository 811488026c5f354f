/// The three decisions of SPEC §12 for one request: what APNs answers, whether the extension runs, and
/// — when the image was attached — where it shows. Pure: the request, its payload, whether the
/// pipeline attached the image, what the app says and the device's previews setting.
package struct RequestJudgement: Sendable, Equatable {
    package var apns: APNsVerdict
    package var extensionVerdict: ExtensionVerdict
    /// Nil when nothing attaches: the image was not attached, the extension does not run, or the request
    /// is refused.
    package var shown: ImageSurfaces?
    /// Every warning of the three, and the reader's notes, in that order.
    package var warnings: [String]

    /// `payload` nil: the request's body is not a JSON object (or there is none), so nothing is
    /// delivered to run on.
    package static func judge(
        _ request: APNsRequest, payload: JSONValue?, attached: Bool, facts: PresentationFacts = .unknown, previews: ShowPreviews? = nil
    ) -> RequestJudgement {
        let apns = APNsVerdict.judge(request, payload: payload, facts: facts)
        let extensionVerdict = ExtensionVerdict.judge(request, payload: payload, apns: apns)
        let shown =
            attached && extensionVerdict.runs ? payload.map { ImageSurfaces.judge(payload: $0, facts: facts, previews: previews) } : nil
        let warnings = request.notes + apns.warnings + extensionVerdict.warnings + (shown?.warnings ?? [])
        return RequestJudgement(apns: apns, extensionVerdict: extensionVerdict, shown: shown, warnings: warnings)
    }

    /// Whether any surface is `not-shown`.
    package var notShown: Bool { shown?.anyNotShown ?? false }
}
