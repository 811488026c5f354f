/// The content of a notification, shaped like `UNNotificationContent` / `UNMutableNotificationContent`
/// so that the core could be lifted into a real extension.
public struct NotificationContent: Sendable, Equatable {
    /// `aps.alert.title`, or empty.
    public var title: String
    /// `aps.alert.subtitle`, or empty.
    public var subtitle: String
    /// `aps.alert.body` (or `aps.alert` when it is a string), or empty.
    public var body: String
    /// `aps.badge` when it is a number, as its JSON text.
    public var badge: String?
    /// `aps.sound` when it is a string (a critical-sound object is kept in `userInfo` only).
    public var sound: String?
    /// The whole payload, as iOS hands it to the extension.
    public var userInfo: JSONValue
    /// The payload's bytes exactly as received: a fallback delivers these unchanged.
    public var userInfoBytes: [UInt8]
    /// The attachments: the verified image, when one was attached.
    public var attachments: [NotificationAttachment]

    /// Content with the given fields; by default empty, with an empty payload.
    public init(
        title: String = "", subtitle: String = "", body: String = "", badge: String? = nil, sound: String? = nil,
        userInfo: JSONValue = [:], userInfoBytes: [UInt8] = Array("{}".utf8), attachments: [NotificationAttachment] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.badge = badge
        self.sound = sound
        self.userInfo = userInfo
        self.userInfoBytes = userInfoBytes
        self.attachments = attachments
    }

    /// The content iOS builds from a payload's `aps` dictionary. Localisation keys are not resolved
    /// (there is no app bundle here): a `loc-key` alone leaves the body empty.
    public init(payload: Payload) {
        let aps = payload.userInfo["aps"]
        var title = ""
        var subtitle = ""
        var body = ""
        switch aps?["alert"] {
        case .string(let text)?:
            body = text
        case let alert? where alert.isObject:
            title = alert["title"]?.stringValue ?? ""
            subtitle = alert["subtitle"]?.stringValue ?? ""
            body = alert["body"]?.stringValue ?? ""
        default:
            break
        }
        var badge: String?
        if case .number(let text)? = aps?["badge"] { badge = text }
        self.init(
            title: title, subtitle: subtitle, body: body, badge: badge, sound: aps?["sound"]?.stringValue,
            userInfo: payload.userInfo, userInfoBytes: payload.bytes)
    }
}

/// A file attached to a notification, as `UNNotificationAttachment`.
public struct NotificationAttachment: Sendable, Equatable {
    /// The pipeline's identifier for the attachment.
    public var identifier: String
    /// Absolute path of the file in the attachments directory.
    public var path: String
    /// The image's format, decided from its bytes.
    public var type: ImageType
    /// The file's size in bytes.
    public var byteCount: Int

    /// An attachment for the file at `path`.
    public init(identifier: String, path: String, type: ImageType, byteCount: Int) {
        self.identifier = identifier
        self.path = path
        self.type = type
        self.byteCount = byteCount
    }
}

/// A notification request as `UNNotificationRequest`: an identifier and its content.
public struct NotificationRequest: Sendable, Equatable {
    /// The request's identifier.
    public var identifier: String
    /// The content as it arrived: the payload and what iOS builds from its `aps`.
    public var content: NotificationContent

    /// A request with `content`.
    public init(identifier: String, content: NotificationContent) {
        self.identifier = identifier
        self.content = content
    }

    /// The request iOS would hand the extension for a payload.
    public init(identifier: String, payload: Payload) {
        self.init(identifier: identifier, content: NotificationContent(payload: payload))
    }
}
