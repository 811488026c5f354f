/// APNs' checks of a request, one pure function per rule, in the order the verdict reports them: the
/// first refusal is the reason; every open question and warning is kept.
enum APNsChecks {
    typealias Context = APNsVerdict.Context
    typealias Finding = APNsVerdict.Finding

    static let all: [(RequestRule, @Sendable (Context) -> [Finding])] = [
        (RequestRules.method, method), (RequestRules.path, path), (RequestRules.tokenMissing, token),
        (RequestRules.duplicateHeaders, duplicates), (RequestRules.pushType, pushType), (RequestRules.topicMissing, topicMissing),
        (RequestRules.topicSuffix, topicSuffix), (RequestRules.topicApp, topicApp), (RequestRules.priority, priority),
        (RequestRules.priorityBackground, priorityBackground), (RequestRules.expiration, expiration),
        (RequestRules.collapseID, collapseID), (RequestRules.apnsID, apnsID), (RequestRules.payloadEmpty, payloadEmpty),
        (RequestRules.payloadSize, payloadSize), (RequestRules.host, host), (RequestRules.http2, http2),
    ]

    /// The push types APNs knows, and the suffix each one's topic carries after the bundle ID (nil: the
    /// MDM topic comes from its certificate, so there is no rule to check).
    static let topicSuffixes: [String: String?] = [
        "alert": "", "background": "", "location": ".location-query", "voip": ".voip", "complication": ".complication",
        "fileprovider": ".pushkit.fileprovider", "mdm": nil, "liveactivity": ".push-type.liveactivity", "pushtotalk": ".voip-ptt",
        "widgets": ".push-type.widgets",
    ]

    /// Every suffix a push type's topic carries, sorted (made once).
    static let suffixes: [String] = topicSuffixes.values.compactMap { $0 }.filter { !$0.isEmpty }.sorted()

    static func method(_ context: Context) -> [Finding] {
        guard !context.viaFCM, let method = context.request.method else { return [] }
        if let open = context.open(":method", method) { return [open] }
        return method == "POST" ? [] : [.refuse(.methodNotAllowed, ":method is \(Quoting.single(method, limit: 20)), not POST")]
    }

    static func path(_ context: Context) -> [Finding] {
        guard !context.viaFCM, let path = context.request.target?.path else { return [] }
        if path.hasPrefix("/3/device/") || path == "/3/device" { return [] }
        if let open = context.open(":path", path) { return [open] }
        return [.refuse(.badPath, ":path \(Quoting.single(path, limit: 80)) is not /3/device/ and a device token")]
    }

    static func token(_ context: Context) -> [Finding] {
        guard !context.viaFCM, let path = context.request.target?.path, path.hasPrefix("/3/device") else { return [] }
        let token = String(path.dropFirst("/3/device".count).drop { $0 == "/" })
        if token.isEmpty { return [.refuse(.missingDeviceToken, ":path has no device token after /3/device/")] }
        if let open = context.open("the device token", token) { return [open] }
        if token.contains("/") || token.contains("?") {
            return [.refuse(.badPath, ":path \(Quoting.single(path, limit: 80)) has more than a device token after /3/device/")]
        }
        guard token.utf8.allSatisfy({ isHexDigit($0) }) else {
            return [.refuse(.badDeviceToken, "the device token \(Quoting.single(token, limit: 80)) is not hexadecimal digits")]
        }
        return []
    }

    static func duplicates(_ context: Context) -> [Finding] {
        var seen: Set<String> = []
        for field in context.request.headers {
            let name = field.name.lowercased()
            if !seen.insert(name).inserted { return [.refuse(.duplicateHeaders, "the header field \(name) is sent twice")] }
        }
        return []
    }

    static func pushType(_ context: Context) -> [Finding] {
        guard let field = context.request.header("apns-push-type") else {
            if context.viaFCM {
                return [.unknown("the apns-push-type FCM sends: it sets one where apns.headers have none, and does not document which")]
            }
            return [
                .warn(
                    "no apns-push-type: required on watchOS and recommended on iOS; without it APNs may return an error, delay the notification or drop it"
                )
            ]
        }
        if let open = context.open("apns-push-type", field.value) { return [open] }
        guard topicSuffixes[field.value.lowercased()] != nil else {
            return [.refuse(.invalidPushType, "apns-push-type \(Quoting.single(field.value, limit: 40)) is not a push type APNs knows")]
        }
        return []
    }

    static func topicMissing(_ context: Context) -> [Finding] {
        guard context.request.header("apns-topic") == nil else { return [] }
        if context.viaFCM { return [.unknown("the apns-topic FCM sends: the bundle ID of the app the registration token belongs to")] }
        if context.bearer { return [.refuse(.missingTopic, "no apns-topic, which token-based authentication requires")] }
        return [.unknown("no apns-topic: APNs takes the certificate's topic if it has only one")]
    }

    static func topicSuffix(_ context: Context) -> [Finding] {
        guard let topic = context.request.header("apns-topic")?.value else { return [] }
        if let open = context.open("apns-topic", topic) { return [open] }
        guard let type = context.pushType, let expected = topicSuffixes[type] ?? nil else { return [] }
        if expected.isEmpty, let wrong = suffixes.first(where: { topic.hasSuffix($0) }) {
            return [
                .refuse(
                    .deviceTokenNotForTopic,
                    "apns-topic \(Quoting.single(topic, limit: 80)) ends in \(wrong), which a \(type) push's topic does not")
            ]
        }
        if !expected.isEmpty && !topic.hasSuffix(expected) {
            return [
                .refuse(
                    .deviceTokenNotForTopic, "a \(type) push's apns-topic ends in \(expected); \(Quoting.single(topic, limit: 80)) does not"
                )
            ]
        }
        return []
    }

    static func topicApp(_ context: Context) -> [Finding] {
        guard let bundle = context.facts.bundleIdentifier, let topic = context.request.header("apns-topic")?.value,
            context.open("apns-topic", topic) == nil
        else { return [] }
        let type = context.pushType ?? "alert"
        // An MDM topic is its certificate's; a push type APNs does not know is refused already.
        guard let known = topicSuffixes[type], let suffix = known else { return [] }
        let expected = bundle + suffix
        return topic == expected
            ? [] : [.refuse(.deviceTokenNotForTopic, "apns-topic \(Quoting.single(topic, limit: 80)) is not the app's \(expected)")]
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
