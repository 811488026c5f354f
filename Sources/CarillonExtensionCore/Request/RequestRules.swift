/// Every rule SPEC §12's decisions apply, each with its source: the catalogue ``APNsVerdict``,
/// ``ExtensionVerdict`` and ``ImageSurfaces`` decide by, and `Documentation/Requests.md` lists.
package enum RequestRules {
    // MARK: - APNs' verdict

    static let method = RequestRule(id: "apns.method", statement: ":method is POST (else MethodNotAllowed, 405)", source: .appleResponses)
    static let path = RequestRule(
        id: "apns.path", statement: ":path is /3/device/ and the device token (else BadPath, 404)", source: .appleResponses)
    static let tokenMissing = RequestRule(
        id: "apns.token-missing", statement: "a device token is in :path (else MissingDeviceToken, 400)", source: .appleResponses)
    static let tokenHex = RequestRule(
        id: "apns.token-hex", statement: "the device token is hexadecimal digits (else BadDeviceToken, 400)", source: .appleSending)
    static let duplicateHeaders = RequestRule(
        id: "apns.duplicate-headers", statement: "no header field is sent twice (else DuplicateHeaders, 400)", source: .appleResponses)
    static let pushType = RequestRule(
        id: "apns.push-type",
        statement:
            "apns-push-type is alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk or widgets (else InvalidPushType, 400)",
        source: .appleSending)
    static let pushTypeMissing = RequestRule(
        id: "apns.push-type-missing",
        statement:
            "without apns-push-type (required on watchOS, recommended on iOS) APNs may return an error, delay the notification or drop it: a warning",
        source: .appleSending)
    static let topicMissing = RequestRule(
        id: "apns.topic-missing",
        statement:
            "apns-topic is required with token-based authentication (else MissingTopic, 400); with a certificate, only when it names several topics (unknown)",
        source: .appleSending)
    static let topicSuffix = RequestRule(
        id: "apns.topic-suffix",
        statement:
            "the topic is the bundle ID with the push type's suffix (.voip, .complication, .pushkit.fileprovider, .location-query, .push-type.liveactivity, .voip-ptt, .push-type.widgets; none for alert and background); the reason APNs answers otherwise, DeviceTokenNotForTopic (400), is developers' report",
        source: .appleForumTopic)
    static let topicApp = RequestRule(
        id: "apns.topic-app",
        statement: "with the app known, the topic is its bundle ID (with the push type's suffix): else DeviceTokenNotForTopic (400)",
        source: .appleSending)
    static let priority = RequestRule(
        id: "apns.priority", statement: "apns-priority is 10, 5 or 1 (else BadPriority, 400)", source: .appleSending)
    static let priorityBackground = RequestRule(
        id: "apns.priority-background",
        statement:
            "priority 10 on a background push (or a payload of content-available alone) is an error, an omitted apns-priority being 10; Apple names no reason, and BadPriority (400) is this tool's reading",
        source: .appleBackground)
    static let expiration = RequestRule(
        id: "apns.expiration", statement: "apns-expiration is an integer: a UNIX time in seconds, or 0 (else BadExpirationDate, 400)",
        source: .appleSending)
    static let collapseID = RequestRule(
        id: "apns.collapse-id", statement: "apns-collapse-id is at most 64 bytes (else BadCollapseId, 400)", source: .appleSending)
    static let apnsID = RequestRule(
        id: "apns.id", statement: "apns-id is a canonical UUID, 8-4-4-4-12 hexadecimal digits (else BadMessageId, 400)",
        source: .appleSending)
    static let payloadEmpty = RequestRule(
        id: "apns.payload-empty", statement: "the payload is not empty (else PayloadEmpty, 400)", source: .appleResponses)
    static let payloadSize = RequestRule(
        id: "apns.payload-size",
        statement:
            "the payload is at most 4096 bytes, 5120 for voip, counted in the bytes sent: a curl command's data exactly, a request text's body without its final line break, the compact JSON of an FCM message or a payload file (else PayloadTooLarge, 413)",
        source: .appleSending)
    static let host = RequestRule(
        id: "apns.host",
        statement:
            "api.push.apple.com is production, api.sandbox.push.apple.com (api.development.push.apple.com, its older name) development; with the app known, a token of its aps-environment sent to the other host is BadDeviceToken (400)",
        source: .appleSending)
    static let http2 = RequestRule(
        id: "apns.http2", statement: "APNs speaks HTTP/2 only: what it answers another version is not documented (unknown)",
        source: .appleSending)
    static let credentials = RequestRule(
        id: "apns.credentials",
        statement:
            "the provider token (its signature, its age, its key), the certificate, and whether the device token is registered for the topic and environment need the credentials or the device: always unknown",
        source: .appleResponses)

    // MARK: - FCM

    static let fcmFields = RequestRule(
        id: "fcm.fields",
        statement:
            "FCM refuses (400 INVALID_ARGUMENT) a field it does not know at its level, such as the legacy API's to, priority, content_available, mutable_content at the message's level; names are accepted in either form (fcm_options, fcmOptions)",
        source: .fcmMigrate)
    static let fcmTarget = RequestRule(
        id: "fcm.target", statement: "a message has exactly one of token, topic and condition (else 400 INVALID_ARGUMENT)",
        source: .fcmMessage)
    static let fcmStrings = RequestRule(
        id: "fcm.strings", statement: "data and apns.headers map strings to strings: any other value is refused (400 INVALID_ARGUMENT)",
        source: .fcmMessage)
    static let fcmReservedData = RequestRule(
        id: "fcm.reserved-data", statement: "data keys must not be from, message_type, or start with google or gcm (400 INVALID_ARGUMENT)",
        source: .fcmMessage)
    static let fcmValidateOnly = RequestRule(
        id: "fcm.validate-only",
        statement: "with validate_only true FCM checks the message and sends nothing: nothing reaches the device, so no extension runs",
        source: .fcmMessage)
    static let fcmMapping = RequestRule(
        id: "fcm.mapping",
        statement:
            "apns.payload is the APNs payload and overrides notification.title and body; data keys become top-level payload keys; apns.headers are sent, with apns-priority 10 and apns-expiration 30 days where absent",
        source: .fcmMessage)
    static let fcmImage = RequestRule(
        id: "fcm.image",
        statement:
            "apns.fcm_options.image (else notification.image) travels as the payload's fcm_options.image; FCM sets no mutable-content for it, the sender must",
        source: .fcmImage)
    static let fcmRaw = RequestRule(
        id: "fcm.raw",
        statement:
            "apns.payload is passed to APNs as written: the Admin SDKs' camelCase (aps.mutableContent) is not APNs' aps.mutable-content, so iOS never sees it",
        source: .fcmMessage)
}
