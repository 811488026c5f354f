import Foundation

/// The messages (campaigns), deliveries and keys the events API stand-in is started with
/// (`events_api.py --fixture`; the format is in `TestAssets/Server/README.md`).
public struct EventsAPIFixture: Sendable {
    /// A key: `carillon_mk_…` posts events for `app`, `carillon_sk_…` reads `app`'s messages.
    public struct Key: Sendable {
        public var key: String
        public var app: String
        public var scopes: [String]

        public init(_ key: String, app: String, scopes: [String] = []) {
            self.key = key
            self.app = app
            self.scopes = scopes
        }
    }

    /// One delivery of a message: `platform` `ios`, `android` or nil (written before platforms were
    /// recorded); `status` `sent`, `failed` or `pending`.
    public struct Delivery: Sendable {
        public var id: String
        public var deviceID: String
        public var platform: String?
        public var status: String
        public var errorCode: String?

        public init(_ id: String, device: String? = nil, platform: String? = "ios", status: String = "sent", errorCode: String? = nil) {
            self.id = id
            self.deviceID = device ?? "device-" + id.suffix(4)
            self.platform = platform
            self.status = status
            self.errorCode = errorCode
        }
    }

    /// A message of `app`, created at `createdAt` (`YYYY-MM-DDTHH:MM:SS.fffZ`), its deliveries in order.
    public struct Message: Sendable {
        public var id: String
        public var app: String
        public var createdAt: String
        public var deliveries: [Delivery]

        public init(_ id: String, app: String, createdAt: String, deliveries: [Delivery]) {
            self.id = id
            self.app = app
            self.createdAt = createdAt
            self.deliveries = deliveries
        }
    }

    public var keys: [Key]
    public var messages: [Message]

    public init(keys: [Key], messages: [Message]) {
        self.keys = keys
        self.messages = messages
    }

    /// The fixture file's text.
    public func json() throws -> String {
        let object: [String: Any] = [
            "keys": keys.map { ["key": $0.key, "app": $0.app, "scopes": $0.scopes] },
            "messages": messages.map { message in
                [
                    "id": message.id, "app": message.app, "created_at": message.createdAt,
                    "deliveries": message.deliveries.map { delivery -> [String: Any] in
                        [
                            "id": delivery.id, "device_id": delivery.deviceID, "platform": delivery.platform ?? NSNull(),
                            "status": delivery.status, "error_code": delivery.errorCode ?? NSNull(),
                        ]
                    },
                ] as [String: Any]
            },
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }
}
