/// One `POST /v1/events` request: at most ``maximumEvents`` events, in queue order.
public struct EventBatch: Sendable, Equatable {
    /// The API's limit on events per request.
    public static let maximumEvents = 100

    /// The events, in queue order.
    public let events: [Event]

    /// A batch of `events`; ``EventQueue/batches(maximumEvents:)`` makes them at most ``maximumEvents`` long.
    public init(events: [Event]) {
        self.events = events
    }

    /// The request body, compact, members in the API's order:
    /// `{"events":[{"type":"received","delivery_id":"…","at":"2026-08-20T09:16:44.120Z"}]}`.
    public var requestBody: String {
        JSONWriter.string(.object([(key: "events", value: .array(events.map(\.jsonValue)))]))
    }

    /// Splits `events` into consecutive batches of `maximumEvents` (clamped to 1 ... 100, the API's
    /// limit), keeping their order. No events, no batches.
    public static func batches(of events: [Event], maximumEvents: Int = EventBatch.maximumEvents) -> [EventBatch] {
        let size = min(max(maximumEvents, 1), EventBatch.maximumEvents)
        return stride(from: 0, to: events.count, by: size).map { start in
            EventBatch(events: Array(events[start..<min(start + size, events.count)]))
        }
    }
}
