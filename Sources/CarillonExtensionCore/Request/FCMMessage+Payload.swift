extension FCMMessage {
    /// `apns.payload`, or an empty object; a payload that is not an object is refused.
    static func payloadObject(_ value: JSONValue?, refusals: inout [String]) -> JSONValue {
        switch value {
        case nil: return .object([])
        case .object?: return value!
        case let other?:
            refusals.append("Invalid value at 'message.apns.payload': \(other.typeName), not an object")
            return .object([])
        }
    }

    /// The spellings in `apns.payload.aps` that FCM passes on as written and iOS does not read: the Admin
    /// SDKs' camelCase (`mutableContent`), and snake_case (`mutable_content`). iOS reads `aps` keys
    /// exactly (`mutable-content`).
    static func passedRaw(_ payload: JSONValue) -> [String] {
        guard case .object(let aps)? = payload["aps"] else { return [] }
        let meant: [String: String] = [
            "mutablecontent": "mutable-content", "contentavailable": "content-available", "threadid": "thread-id",
            "targetcontentid": "target-content-id", "interruptionlevel": "interruption-level", "relevancescore": "relevance-score",
            "filtercriteria": "filter-criteria",
        ]
        return aps.compactMap { member -> String? in
            let folded = String(member.key.lowercased().filter { $0 != "_" && $0 != "-" })
            guard let apple = meant[folded], member.key != apple else { return nil }
            return "apns.payload.aps.\(member.key) is passed to APNs as written, and iOS reads aps.\(apple): the Admin SDKs' "
                + "spelling becomes APNs' only inside the SDK"
        }
    }

    /// `notification.title` and `.body` as `aps.alert`, unless `apns.payload` has an `aps.alert` (which
    /// overrides them).
    static func withNotification(_ payload: JSONValue, _ notification: JSONValue?) -> JSONValue {
        var alert: [(key: String, value: JSONValue)] = []
        for key in ["title", "body"] {
            if case .string(let text)? = notification?[key] { alert.append((key: key, value: .string(text))) }
        }
        guard !alert.isEmpty else { return payload }
        var aps: [(key: String, value: JSONValue)] = []
        if case .object(let members)? = payload["aps"] { aps = members }
        guard !aps.contains(where: { $0.key == "alert" }) else { return payload }
        aps.insert((key: "alert", value: .object(alert)), at: 0)
        return setting(payload, "aps", .object(aps), first: true)
    }

    /// `apns.fcm_options.image`, else `notification.image`.
    static func imageURL(apns: JSONValue?, notification: JSONValue?) -> String? {
        if case .string(let url)? = field(field(apns, "fcm_options"), "image") { return url }
        if case .string(let url)? = notification?["image"] { return url }
        return nil
    }

    /// The image as the payload's `fcm_options.image`.
    static func withImage(_ payload: JSONValue, image: String?) -> JSONValue {
        guard let image else { return payload }
        return setting(payload, "fcm_options", .object([(key: "image", value: .string(image))]), first: false)
    }

    /// `data`'s keys as top-level payload keys; one `apns.payload` already has is left as it is, and said.
    static func withData(_ payload: JSONValue, _ data: JSONValue?, notes: inout [String]) -> JSONValue {
        guard case .object(let members)? = data, case .object(var top) = payload else { return payload }
        for member in members {
            if top.contains(where: { $0.key == member.key }) {
                notes.append(
                    "data key '\(member.key)' is also in apns.payload: which one FCM sends is not documented; apns.payload's is judged")
                continue
            }
            top.append(member)
        }
        return .object(top)
    }

    /// `apns.headers` as fields, then FCM's defaults for the ones absent; and the names defaulted.
    static func headerFields(_ value: JSONValue?) -> ([HTTPField], [String]) {
        var fields: [HTTPField] = []
        if case .object(let members)? = value {
            for member in members {
                if case .string(let text) = member.value { fields.append(HTTPField(name: member.key, value: text)) }
            }
        }
        var defaulted: [String] = []
        let names = Set(fields.map { $0.name.lowercased() })
        if !names.contains("apns-priority") {
            fields.append(HTTPField(name: "apns-priority", value: "10"))
            defaulted.append("apns-priority")
        }
        if !names.contains("apns-expiration") {
            fields.append(HTTPField(name: "apns-expiration", value: "(30 days after FCM sends it)"))
            defaulted.append("apns-expiration")
        }
        return (fields, defaulted)
    }

    /// `object` with `key` set to `value`: replaced where it is, else added first or last.
    static func setting(_ object: JSONValue, _ key: String, _ value: JSONValue, first: Bool) -> JSONValue {
        guard case .object(var members) = object else { return object }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else if first {
            members.insert((key: key, value: value), at: 0)
        } else {
            members.append((key: key, value: value))
        }
        return .object(members)
    }
}
