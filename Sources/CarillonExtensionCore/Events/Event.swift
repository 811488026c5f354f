/// What happened to a delivery, as the public API's `POST /v1/events` names it.
public enum EventType: String, Sendable, Hashable, CaseIterable {
    /// The notification reached the device (from a receipt).
    case received
    /// The user tapped the notification (`didOpen(userInfo:)`).
    case opened
}

/// One event for the server: a type, a delivery and when it happened.
public struct Event: Sendable, Hashable {
    /// What happened.
    public var type: EventType
    /// The delivery it happened to (`carillon.delivery_id`).
    public var deliveryID: DeliveryID
    /// When it happened on the device, in milliseconds.
    public var at: Timestamp

    /// An event of `type` for `deliveryID` at `at`.
    public init(type: EventType, deliveryID: DeliveryID, at: Timestamp) {
        self.type = type
        self.deliveryID = deliveryID
        self.at = at
    }

    /// The event as the API's JSON object: `{"type":…,"delivery_id":…,"at":…}`, members in that order.
    public var jsonValue: JSONValue {
        .object([
            (key: "type", value: .string(type.rawValue)),
            (key: "delivery_id", value: .string(deliveryID.rawValue)),
            (key: "at", value: .string(at.iso8601)),
        ])
    }
}
