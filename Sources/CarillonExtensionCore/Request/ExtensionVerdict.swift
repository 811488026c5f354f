/// Whether iOS runs the notification service extension for a request (SPEC §12, `request.extension`):
/// the payload's routing (SPEC §1) plus what the headers and the provider's envelope decide. Pure.
package struct ExtensionVerdict: Sendable, Equatable {
    package var runs: Bool
    package var why: String
    package var rule: RequestRule
    /// What holds the extension back without stopping it (a low priority).
    package var warnings: [String]

    /// Decides for `request` carrying `payload`, given APNs' verdict on it.
    /// `payload` nil: the body is not a JSON object, so there is nothing to display.
    package static func judge(_ request: APNsRequest, payload: JSONValue?, apns: APNsVerdict) -> ExtensionVerdict {
        if apns.refused {
            return ExtensionVerdict(runs: false, why: "refused: \(apns.detail)", rule: RequestRules.refused, warnings: [])
        }
        if request.fcm?.validateOnly == true {
            // Judged as if sent, and said so: FCM delivers nothing for a validate_only message.
            var sent = request
            sent.fcm?.validateOnly = false
            let were = judge(sent, payload: payload, apns: apns)
            return ExtensionVerdict(
                runs: false,
                why: "validate_only is true: FCM checks the message and sends nothing; were it sent, the extension "
                    + "\(were.runs ? "would run" : "would not run"): \(were.why)",
                rule: RequestRules.fcmValidateOnly, warnings: were.warnings)
        }
        guard let payload else {
            return ExtensionVerdict(
                runs: false, why: "the body is not a JSON object: the device has no payload to display", rule: RequestRules.routing,
                warnings: [])
        }
        let pushType = request.header("apns-push-type")?.value.lowercased()
        let open = pushType.flatMap { request.unresolved(in: $0) }
        if open == nil, pushType == "background" {
            return ExtensionVerdict(
                runs: false, why: "apns-push-type background: never displayed, so iOS never runs the extension",
                rule: RequestRules.background,
                warnings: [])
        }
        if open == nil, let pushType, pushType != "alert" {
            return ExtensionVerdict(
                runs: false, why: "apns-push-type \(pushType): only alert pushes reach the notification service extension",
                rule: RequestRules.otherPushType, warnings: [])
        }
        if let outcome = Routing.decide(payload) {
            return ExtensionVerdict(
                runs: false, why: notRoutedWhy(outcome, request: request, payload: payload), rule: rule(outcome, payload), warnings: [])
        }
        var warnings: [String] = []
        switch request.header("apns-priority")?.value {
        case "5"?:
            warnings.append(
                "apns-priority 5: delivered in bursts and throttled, so the extension runs late, or the notification comes late")
        case "1"?:
            warnings.append(
                "apns-priority 1: the device's power comes first and the device is not woken, so the notification may come much later")
        default: break
        }
        let why =
            "aps.mutable-content is 1 and the alert displays"
            + (open.map { "; apns-push-type is \(Quoting.single($0.source)), which \($0.why)" } ?? "")
        return ExtensionVerdict(runs: true, why: why, rule: RequestRules.routing, warnings: warnings)
    }

    /// The routing outcome, with what the envelope says about it: FCM passing a misspelt key on, the
    /// seed's apns override, an alert push that is content-available alone.
    private static func notRoutedWhy(_ outcome: Outcome, request: APNsRequest, payload: JSONValue) -> String {
        var why = "\(outcome.reason.code): \(outcome.detail)"
        if let raw = request.fcm?.passedRaw.first(where: { $0.contains("mutable") }) ?? request.fcm?.passedRaw.first { why += "; \(raw)" }
        if let override = PayloadHints.overrideDroppedMutableContent(payload) { why += "; \(override)" }
        if outcome.reason == .noAlert, request.header("apns-push-type")?.value.lowercased() == "alert",
            payload["aps"]?["content-available"] != nil
        {
            why += "; an alert push with only content-available displays nothing"
        }
        return why
    }

    private static func rule(_ outcome: Outcome, _ payload: JSONValue) -> RequestRule {
        PayloadHints.overrideDroppedMutableContent(payload) != nil ? RequestRules.seedOverride : RequestRules.routing
    }
}
