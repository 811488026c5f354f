/// What APNs answers a request, as far as the request shows it (SPEC §12, `request.apns`): `accepted`,
/// or the reason Apple's table names with its status; what needs the credentials or the device is in
/// ``unknown``, never guessed. A pure function of the request, the payload and what the app says.
package struct APNsVerdict: Sendable, Equatable {
    /// `accepted`, `unknown`, or Apple's reason name.
    package var reason: String
    /// The HTTP status: 200 when accepted, the reason's status, or nil when unknown.
    package var status: Int?
    /// Why, in words; the rule that decided, when one refused.
    package var detail: String
    package var rule: RequestRule?
    /// What the request alone cannot settle.
    package var unknown: [String]
    /// What APNs takes but a person should hear (no `apns-push-type`).
    package var warnings: [String]
    /// Whether the request is refused, by APNs or by FCM before it.
    package var refused: Bool

    /// One check's finding.
    enum Finding: Equatable {
        case refuse(APNsReason, String)
        case unknown(String)
        case warn(String)
    }

    /// What the checks see: the request, the payload's `aps`, the app's facts, and the fields they read.
    struct Context {
        var request: APNsRequest
        var payload: JSONValue?
        var facts: PresentationFacts
        /// `apns-push-type`, lowercased; read once.
        let pushType: String?
        /// Whether the request authenticates with a provider token (`authorization: bearer …`).
        let bearer: Bool
        var viaFCM: Bool { request.sender == .fcm }

        init(request: APNsRequest, payload: JSONValue?, facts: PresentationFacts) {
            self.request = request
            self.payload = payload
            self.facts = facts
            pushType = request.header("apns-push-type")?.value.lowercased()
            bearer = request.header("authorization").map { APNsRequest.sameName(String($0.value.prefix(6)), "bearer") } ?? false
        }

        /// `text` as the input leaves it open: the finding that it is unknown, or nil when it is known.
        func open(_ what: String, _ text: String) -> Finding? {
            guard let missing = request.unresolved(in: text) else { return nil }
            return .unknown("\(what) is \(Quoting.single(missing.source, limit: 60)), which \(missing.why)")
        }
    }

    /// Judges `request`.
    package static func judge(_ request: APNsRequest, payload: JSONValue?, facts: PresentationFacts = .unknown) -> APNsVerdict {
        let context = Context(request: request, payload: payload, facts: facts)
        var refusal: (APNsReason, String, RequestRule)?
        var unknown: [String] = []
        var warnings: [String] = []
        for (rule, check) in APNsChecks.all {
            for finding in check(context) {
                switch finding {
                case .refuse(let reason, let detail): if refusal == nil { refusal = (reason, detail, rule) }
                case .unknown(let text): unknown.append(text)
                case .warn(let text): warnings.append(text)
                }
            }
        }
        unknown += APNsChecks.credentials(context)
        if let fcmRefusal = request.fcm?.refusal {
            return APNsVerdict(
                reason: "unknown", status: nil,
                detail: "FCM refuses the message (400 INVALID_ARGUMENT): \(fcmRefusal); nothing reaches APNs",
                rule: fcmRule(fcmRefusal), unknown: unknown, warnings: warnings, refused: true)
        }
        if let elsewhere = APNsChecks.elsewhere(context) {
            // Not sent to APNs at all: what that server answers is its own.
            return APNsVerdict(
                reason: "unknown", status: nil, detail: elsewhere, rule: RequestRules.host,
                unknown: unknown + (refusal.map { ["were it APNs: \($0.0.rawValue), \($0.1)"] } ?? []), warnings: warnings, refused: false)
        }
        if let (reason, detail, rule) = refusal {
            return APNsVerdict(
                reason: reason.rawValue, status: reason.status, detail: detail, rule: rule, unknown: unknown, warnings: warnings,
                refused: true)
        }
        if payload == nil, !request.body.isEmpty, (try? JSONParser.parse(request.body))?.isObject != true {
            // Apple's table names no reason for a body that is not JSON: what APNs answers is not guessed.
            return APNsVerdict(
                reason: "unknown", status: nil,
                detail: "the body is not a JSON object, and Apple's table names no reason for that: what APNs answers is not documented",
                rule: RequestRules.payloadEmpty, unknown: unknown, warnings: warnings, refused: false)
        }
        return APNsVerdict(
            reason: "accepted", status: 200, detail: "well formed, as far as the request goes", rule: nil, unknown: unknown,
            warnings: warnings, refused: false)
    }

    /// The FCM rule a refusal comes from.
    private static func fcmRule(_ refusal: String) -> RequestRule {
        if refusal.contains("target") { return RequestRules.fcmTarget }
        if refusal.contains("TYPE_STRING") { return RequestRules.fcmStrings }
        if refusal.contains("reserved") { return RequestRules.fcmReservedData }
        return RequestRules.fcmFields
    }
}
