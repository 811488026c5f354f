/// The public API's rule for an event's `at` (SPEC §5): stored as sent unless it is in the future or more
/// than 30 days old, when the API stores the moment it received the event instead. The tool says so
/// before the event is sent (`batches`, `upload`), so a wrong device clock is seen, not silently mended.
public enum ClockRule {
    /// How old an `at` may be and still be stored as sent: 30 days, exactly.
    public static let maximumAge: Duration = .seconds(30 * 86_400)

    /// Why the API will not keep `event`'s `at`, or nil when it will. `now` is this device's clock, the
    /// best guess at the API's: exactly 30 days old is kept, one millisecond more is not; `at == now` is
    /// kept, one millisecond later is "in the future".
    public static func problem(at: Timestamp, now: Timestamp) -> String? {
        let age = now.millisecondsSinceEpoch - at.millisecondsSinceEpoch
        if age < 0 { return "its at \(at.iso8601) is in the future (now \(now.iso8601))" }
        if .milliseconds(age) > maximumAge { return "its at \(at.iso8601) is more than 30 days old (now \(now.iso8601))" }
        return nil
    }

    /// One warning line per event whose `at` the API will replace, naming the event, in order.
    public static func warnings(for events: [Event], now: Timestamp) -> [String] {
        events.compactMap { event in
            problem(at: event.at, now: now).map {
                "\(event.type.rawValue) event for \(event.deliveryID.rawValue): \($0); the API will store its receive time instead"
            }
        }
    }
}
