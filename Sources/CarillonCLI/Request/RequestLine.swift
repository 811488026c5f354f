@_spi(Tooling) import CarillonExtensionCore

/// The line's `request` object (SPEC §12): the form, who sends it to APNs, APNs' verdict, the
/// extension's, and where the image shows (null when nothing attaches); null for a plain payload.
enum RequestLine {
    static func value(_ request: APNsRequest?, _ judgement: RequestJudgement?) -> JSONValue {
        guard let request, let judgement else { return .null }
        let apns = judgement.apns
        var apnsMembers: [(key: String, value: JSONValue)] = [
            (key: "reason", value: .string(apns.reason)),
            (key: "status", value: apns.status.map { .number(String($0)) } ?? .null),
            (key: "detail", value: .string(apns.detail)),
        ]
        apnsMembers += ruleMembers(apns.rule)
        apnsMembers.append((key: "unknown", value: .array(apns.unknown.map { .string($0) })))
        var extensionMembers: [(key: String, value: JSONValue)] = [
            (key: "runs", value: .bool(judgement.extensionVerdict.runs)), (key: "why", value: .string(judgement.extensionVerdict.why)),
        ]
        extensionMembers += ruleMembers(judgement.extensionVerdict.rule)
        return .object([
            (key: "form", value: .string(request.form.rawValue)),
            (key: "sender", value: .string(request.sender == .fcm ? "fcm" : "provider")),
            (key: "apns", value: .object(apnsMembers)),
            (key: "extension", value: .object(extensionMembers)),
            (key: "shown", value: judgement.shown.map(shown) ?? .null),
        ])
    }

    private static func ruleMembers(_ rule: RequestRule?) -> [(key: String, value: JSONValue)] {
        guard let rule else { return [(key: "rule", value: .null), (key: "source", value: .null)] }
        return [(key: "rule", value: .string(rule.id)), (key: "source", value: .string(rule.source.title))]
    }

    private static func shown(_ surfaces: ImageSurfaces) -> JSONValue {
        .object(
            ImageSurfaces.Surface.allCases.map { surface in
                let placement = surfaces[surface]
                return (
                    key: surface.rawValue,
                    value: .object([
                        (key: "value", value: .string(placement.value.rawValue)), (key: "rule", value: .string(placement.rule.id)),
                        (key: "source", value: .string(placement.rule.source.title)), (key: "why", value: .string(placement.why)),
                    ])
                )
            })
    }
}
