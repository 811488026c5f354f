/// A Firebase Cloud Messaging HTTP v1 message (`{"message": {…}}`, with `validate_only` beside it) and the
/// APNs request FCM sends for it, as Firebase documents the mapping (SPEC §12):
/// - `apns.payload` is the APNs payload, and overrides `notification.title` and `notification.body`
///   (FCM v1 reference, `ApnsConfig.payload`); without an `aps.alert` there, those two make it;
/// - `data` keys become top-level keys of the payload (what an iOS app receives in `userInfo`);
/// - `apns.headers` are the request's header fields, with FCM's defaults where absent: `apns-priority`
///   10 and `apns-expiration` 30 days (`ApnsConfig.headers`);
/// - an image (`apns.fcm_options.image`, else `notification.image`) travels as the payload's
///   `fcm_options.image`, where Firebase's own extension helper reads it; FCM sets no `mutable-content`
///   for it (Firebase's "Send an image in the notification payload" asks the sender to).
///
/// What FCM refuses (400 `INVALID_ARGUMENT`) is found as the v1 API's JSON mapping refuses it: a field it
/// does not know at its level (the legacy API's `content_available`, `mutable_content`, `to`, `priority`
/// …; field names are accepted in either proto form, `fcm_options` or `fcmOptions`), a `data` or header
/// value that is not a string, no target or two. What it passes through as written and iOS does not
/// read as meant (the Admin SDKs' `mutableContent` typed into `apns.payload.aps`) is named too.
package enum FCMMessage {
    /// Whether a JSON value is an FCM message rather than a payload: an object with a `message` object
    /// and no `aps`.
    package static func recognises(_ value: JSONValue) -> Bool {
        guard case .object? = value["message"] else { return false }
        return value["aps"] == nil
    }

    /// The APNs request FCM sends for `value`, with what FCM makes of the message in ``APNsRequest/fcm``.
    /// Never throws: a message FCM refuses still maps as far as it can, its refusal said.
    package static func request(_ value: JSONValue) -> APNsRequest {
        var findings = FCMFindings()
        var refusals: [String] = []
        refusals += unknownFields(value, allowed: topLevelFields, at: nil)
        if case .bool(true)? = field(value, "validate_only") { findings.validateOnly = true }
        let message = value["message"] ?? .object([])
        refusals += unknownFields(message, allowed: messageFields, at: "message")
        refusals += targetProblems(message)
        let notification = message["notification"]
        refusals += unknownFields(notification, allowed: ["title", "body", "image"], at: "message.notification")
        let apns = message["apns"]
        refusals += unknownFields(apns, allowed: apnsFields, at: "message.apns")
        refusals += unknownFields(field(apns, "fcm_options"), allowed: ["analytics_label", "image"], at: "message.apns.fcm_options")
        refusals += stringValues(message["data"], at: "message.data") + stringValues(apns?["headers"], at: "message.apns.headers")
        refusals += reservedDataKeys(message["data"])
        var payload = payloadObject(apns?["payload"], refusals: &refusals)
        let raw = passedRaw(payload)
        findings.passedRaw = raw
        payload = withNotification(payload, notification)
        payload = withImage(payload, image: imageURL(apns: apns, notification: notification))
        var notes: [String] = []
        payload = withData(payload, message["data"], notes: &notes)
        findings.refusal = refusals.first
        var request = APNsRequest(
            form: .fcm, sender: .fcm, method: nil, target: nil, headers: [], body: Array(JSONWriter.string(payload).utf8))
        let (headers, defaulted) = headerFields(apns?["headers"])
        request.headers = headers
        request.defaultedHeaders = defaulted
        if findings.validateOnly {
            notes.append("validate_only is true: FCM checks the message and sends nothing; its request is judged as if sent")
        }
        request.notes = notes
        request.fcm = findings
        return request
    }

    // MARK: - Fields FCM knows

    static let topLevelFields: Set<String> = ["message", "validate_only"]
    static let messageFields: Set<String> = [
        "name", "data", "notification", "android", "webpush", "apns", "fcm_options", "token", "topic", "condition",
    ]
    static let apnsFields: Set<String> = ["headers", "payload", "fcm_options", "live_activity_token"]

    /// The legacy HTTP API's fields, which v1 refuses, with where v1 has each.
    static let legacyFields: [String: String] = [
        "to": "message.token (or topic, condition)", "registration_ids": "one message per token",
        "priority": "message.apns.headers' apns-priority",
        "content_available": "message.apns.payload.aps' content-available", "mutable_content": "message.apns.payload.aps' mutable-content",
        "collapse_key": "message.apns.headers' apns-collapse-id", "time_to_live": "message.apns.headers' apns-expiration",
        "click_action": "message.apns.payload.aps' category", "sound": "message.apns.payload.aps' sound",
        "badge": "message.apns.payload.aps' badge",
    ]

    /// The proto field name for a JSON name in either form: `fcmOptions` and `fcm_options` are one field.
    static func protoName(_ key: String) -> String {
        var name = ""
        for character in key {
            if character.isUppercase && character.isASCII {
                name += "_" + character.lowercased()
            } else {
                name.append(character)
            }
        }
        return name
    }

    /// A member by its proto name, written in either form.
    package static func field(_ value: JSONValue?, _ name: String) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.last { protoName($0.key) == name }?.value
    }

    /// FCM's refusal of each member of `value` it does not know at `path`.
    private static func unknownFields(_ value: JSONValue?, allowed: Set<String>, at path: String?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.filter { !allowed.contains(protoName($0.key)) }.map { member in
            let place = path.map { " at '\($0)'" } ?? ""
            var text = "Invalid JSON payload received. Unknown name \"\(member.key)\"\(place): Cannot find field."
            if let modern = legacyFields[protoName(member.key)] {
                text += " ('\(member.key)' is the legacy API's; HTTP v1 has \(modern))"
            } else if path == nil, messageFields.contains(protoName(member.key)) {
                text += " ('\(member.key)' belongs inside 'message')"
            }
            return text
        }
    }

    /// No target, or more than one of `token`, `topic` and `condition`.
    private static func targetProblems(_ message: JSONValue) -> [String] {
        let targets = ["token", "topic", "condition"].filter { field(message, $0) != nil }
        if targets.isEmpty { return ["the message has no target: one of message.token, message.topic or message.condition is required"] }
        if targets.count > 1 {
            return [
                "Invalid JSON payload received. Oneof field 'target' is already set: message has both '\(targets[0])' and '\(targets[1])'"
            ]
        }
        return []
    }

    /// FCM's `map<string, string>` fields: any value that is not a string is refused.
    private static func stringValues(_ value: JSONValue?, at path: String) -> [String] {
        guard let value else { return [] }
        guard case .object(let members) = value else { return ["Invalid value at '\(path)': not an object of strings"] }
        return members.enumerated().compactMap { index, member in
            if case .string = member.value { return nil }
            return "Invalid value at '\(path)[\(index)].value' (TYPE_STRING): '\(member.key)' is \(member.value.typeName), not a string"
        }
    }

    /// `data` keys FCM reserves: `from`, `message_type`, and any starting `google` or `gcm`.
    private static func reservedDataKeys(_ value: JSONValue?) -> [String] {
        guard case .object(let members)? = value else { return [] }
        return members.map(\.key).filter { key in
            key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
        }.map { "Invalid data payload key: '\($0)' is reserved (from, message_type, google…, gcm…)" }
    }
}
