/// What the queue keeps one event for: a type and a delivery.
@_spi(Tooling) public struct EventKey: Sendable, Hashable {
    public var type: EventType
    public var deliveryID: DeliveryID

    public init(_ type: EventType, _ deliveryID: DeliveryID) {
        self.type = type
        self.deliveryID = deliveryID
    }

    public init(_ event: Event) { self.init(event.type, event.deliveryID) }
}
