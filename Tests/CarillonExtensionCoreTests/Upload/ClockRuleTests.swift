@_spi(Tooling) import CarillonExtensionCore
import Testing

@Suite struct ClockRuleTests {
    static let now = Timestamp(iso8601: "2026-12-01T13:00:00.000Z")!

    @Test(arguments: [
        ("2026-12-01T13:00:00.000Z", Bool?.none),  // now: kept
        ("2026-12-01T12:59:59.999Z", nil),
        ("2026-11-01T13:00:00.000Z", nil),  // exactly 30 days: kept
        ("2026-11-01T12:59:59.999Z", false),  // one millisecond more: too old
        ("2020-01-01T00:00:00.000Z", false),
        ("1970-01-01T00:00:00.000Z", false),
        ("2026-12-01T13:00:00.001Z", true),  // one millisecond ahead: the future
        ("9999-12-31T23:59:59.999Z", true),
    ])
    func rule(at: String, future: Bool?) {
        let problem = ClockRule.problem(at: Timestamp(iso8601: at)!, now: Self.now)
        switch future {
        case nil: #expect(problem == nil)
        case true?: #expect(problem == "its at \(at) is in the future (now 2026-12-01T13:00:00.000Z)")
        case false?: #expect(problem == "its at \(at) is more than 30 days old (now 2026-12-01T13:00:00.000Z)")
        }
    }

    @Test func warningsNameTheEventInOrder() {
        let id = DeliveryID("01937b21-0000-7000-8000-000000000001")!
        let other = DeliveryID("01937b21-0000-7000-8000-000000000002")!
        let events = [
            Event(type: .opened, deliveryID: id, at: Timestamp(iso8601: "2099-01-01T00:00:00.000Z")!),
            Event(type: .received, deliveryID: other, at: Self.now),
            Event(type: .received, deliveryID: id, at: Timestamp(iso8601: "2020-01-01T00:00:00.000Z")!),
        ]
        #expect(
            ClockRule.warnings(for: events, now: Self.now) == [
                "opened event for \(id): its at 2099-01-01T00:00:00.000Z is in the future (now 2026-12-01T13:00:00.000Z); the API will store its receive time instead",
                "received event for \(id): its at 2020-01-01T00:00:00.000Z is more than 30 days old (now 2026-12-01T13:00:00.000Z); the API will store its receive time instead",
            ])
    }
}
