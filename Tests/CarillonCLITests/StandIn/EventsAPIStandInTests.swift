import CarillonTestSupport
import Foundation
import Testing

/// The events API stand-in says what the seed "Track opens" promises (SPEC §10), sentence by sentence,
/// over TLS on loopback with the `curl` command as the client (not the code under test).
@Suite(.timeLimit(.minutes(2))) struct EventsAPIStandInTests {
    typealias C = StandInCampaign

    @Test func receivedIsHowManyEventsWereInTheRequestNeverHowManyWereRecorded() throws {
        let server = try C.server()
        let answer = try C.post(
            server,
            [
                C.event("opened", 1, at: "2026-08-20T10:00:00.000Z"), C.event("opened", 1, at: "2026-08-20T10:05:00.000Z"),
                C.event("opened", 999, at: "2026-08-20T10:00:00.000Z"),
                C.event("opened", C.otherAppsDelivery, at: "2026-08-20T10:00:00.000Z"),
            ])
        #expect(answer.status == 200 && answer.body == "{\"received\":4}\n")
        #expect(try server.recorded().count == 1)
    }

    @Test func unknownForeignAndAlreadyReportedIdentifiersAreDroppedWithoutBeingCountedOrReportedBack() throws {
        let server = try C.server()
        try C.post(server, [C.event("opened", 2, at: "2026-08-20T10:00:00.000Z")])
        let answer = try C.post(
            server,
            [
                C.event("opened", 2, at: "2026-08-20T10:01:00.000Z"), C.event("opened", 999, at: "2026-08-20T10:00:00.000Z"),
                C.event("opened", C.otherAppsDelivery, at: "2026-08-20T10:00:00.000Z"),
            ])
        #expect(answer.status == 200 && answer.json.keys.sorted() == ["received"], "no word about the drops")
        #expect(try server.stats()["dropped"] as? [String: Int] == ["unknown": 1, "foreign": 1, "repeat": 1])
        let otherApp = try C.read(server, C.otherAppsMessage, key: C.secretB)
        #expect((otherApp["outcomes"] as? [String: Int])?["opened"] == 0, "app A's mobile key opened nothing of app B's")
        #expect(try C.read(server)["outcomes"] as? [String: Int] == ["opened": 1])
    }

    @Test func firstReportWinsASecondReportForTheSameDeliveryChangesNothing() throws {
        let server = try C.server()
        try C.post(server, [C.event("opened", 3, at: "2026-08-20T10:00:00.000Z")])
        try C.post(server, [C.event("opened", 3, at: "2026-08-20T11:00:00.000Z"), C.event("opened", 3, at: "2026-08-20T09:40:00.000Z")])
        #expect(C.sampled(try C.read(server), 3)?["opened_at"] as? String == "2026-08-20T10:00:00.000Z")
        #expect(try server.recorded().first?["reports"] as? Int == 3)
    }

    /// (at as sent, whether it is stored as sent) with the clock at 2026-08-20T12:10:00.000Z.
    static let clockRule: [(String, Bool)] = [
        ("2026-08-20T12:09:59.999Z", true),
        ("2026-08-20T12:10:00.000Z", true),
        ("2026-08-20T12:10:00.001Z", false),  // in the future
        ("2027-01-01T00:00:00.000Z", false),
        ("2026-07-21T12:10:00.000Z", true),  // exactly thirty days old
        ("2026-07-21T12:09:59.999Z", false),  // more than thirty days old
        ("2020-01-01T00:00:00.000Z", false),
        ("2026-02-30T10:00:00.000Z", false),  // impossible: no February 30th
        ("2026-08-20T24:00:00.000Z", false),  // impossible: no hour 24
    ]

    @Test(arguments: clockRule)
    func atIsStoredAsSentUnlessTheClockIsImpossibleInTheFutureOrMoreThanThirtyDaysOld(at: String, asSent: Bool) throws {
        let server = try C.server()
        let answer = try C.post(server, [C.event("opened", 5, at: at)])
        #expect(answer.status == 200)
        let stored = C.sampled(try C.read(server), 5)?["opened_at"] as? String
        #expect(stored == (asSent ? at : C.now), "\(at) stored as \(stored ?? "nothing")")
        #expect(try server.recorded().first?["replaced"] as? Bool == !asSent)
    }

    @Test func receivedAtAndReceivedReportedAtDifferAfterAnOfflinePeriod() throws {
        let server = try C.server()
        try C.post(server, [C.event("received", 6, at: "2026-08-20T09:31:02.250Z")])
        let delivery = C.sampled(try C.read(server), 6)
        #expect(delivery?["received_at"] as? String == "2026-08-20T09:31:02.250Z", "the observed time")
        #expect(delivery?["received_reported_at"] as? String == C.now, "when the server heard")
        #expect(delivery?["opened_at"] is NSNull)
    }

    @Test func aDeliveryIsTheSeedsFieldsAndTheTraceInTheSampledListOfTheFirstFiftyInDeliveryOrder() throws {
        let server = try C.server()
        let deliveries = try C.read(server)["deliveries"] as? [[String: Any]] ?? []
        #expect(deliveries.map { $0["id"] as? String } == (1...50).map { TestDeliveryID.text($0) })
        let second = deliveries[1]
        #expect(
            second.keys.sorted() == ["device_id", "error_code", "id", "opened_at", "received_at", "received_reported_at", "status"])
        #expect(second["device_id"] as? String == "device-2" && second["status"] as? String == "failed")
        #expect(second["error_code"] as? String == "Unregistered" && deliveries[0]["error_code"] is NSNull)
        #expect(try C.read(server).keys.sorted() == ["deliveries", "id", "outcomes", "platforms"])
    }

    @Test func anOpenOutsideTheSampledListStillCountsInOutcomesOpened() throws {
        let server = try C.server()
        try C.post(server, [C.event("opened", 52, at: "2026-08-20T10:00:00.000Z")])
        let answer = try C.read(server)
        #expect(answer["outcomes"] as? [String: Int] == ["opened": 1])
        #expect(C.sampled(answer, 52) == nil)
        #expect((answer["deliveries"] as? [[String: Any]])?.allSatisfy { $0["opened_at"] is NSNull } == true)
        #expect((answer["platforms"] as? [String: [String: Int]])?["android"]?["opened"] == 1)
    }

    @Test func platformsCountSentFailedPendingOpenedAndTotalOfTheDeliveriesThatRecordedAPlatform() throws {
        let server = try C.server()
        try C.post(server, [1, 41, 57].map { C.event("opened", $0, at: "2026-08-20T10:00:00.000Z") })
        let answer = try C.read(server)
        let platforms = answer["platforms"] as? [String: [String: Int]]
        // n % 4: 0 and 1 sent, 2 failed, 3 pending; 1–40 on iOS, 41–55 on Android.
        #expect(platforms?["ios"] == ["sent": 20, "failed": 10, "pending": 10, "opened": 1, "total": 40])
        #expect(platforms?["android"] == ["sent": 7, "failed": 4, "pending": 4, "opened": 1, "total": 15])
        #expect(answer["outcomes"] as? [String: Int] == ["opened": 3], "delivery 57 has no platform: in outcomes alone")
    }

    @Test func theHourlyCurveCoversTheFirstFortyEightHoursAfterCreationThroughTheCurrentHour() throws {
        let server = try C.server()
        try C.post(
            server,
            [
                C.event("opened", 1, at: "2026-08-20T09:16:44.120Z"),  // before the creation: in no row
                C.event("opened", 2, at: "2026-08-20T09:45:00.000Z"), C.event("opened", 3, at: "2026-08-20T09:59:59.999Z"),
                C.event("opened", 4, at: "2026-08-20T11:00:00.000Z"),
            ])
        #expect(
            try C.hours(server) == [
                "2026-08-20T09:00:00.000Z 2", "2026-08-20T10:00:00.000Z 0", "2026-08-20T11:00:00.000Z 1", "2026-08-20T12:00:00.000Z 0",
            ])
        try server.setClock("2026-08-23T00:00:00.000Z")
        try C.post(
            server,
            [C.event("opened", 5, at: "2026-08-22T09:29:59.999Z"), C.event("opened", 6, at: "2026-08-22T09:30:00.000Z")])
        let hours = try C.hours(server)
        #expect(hours.count == 49, "09:00 on the 20th through 09:00 on the 22nd: the hours the 48 touch")
        #expect(hours.last == "2026-08-22T09:00:00.000Z 1", "the open at 09:30:00.000 is after the window")
        #expect(hours.compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +) == 4)
        #expect(try C.read(server)["outcomes"] as? [String: Int] == ["opened": 6], "a time window, not the lifetime total")
    }

    @Test func theHourlyCurveIsEmptyIfThereAreNoRecordedOpens() throws {
        let server = try C.server()
        try C.post(server, [C.event("received", 1, at: "2026-08-20T10:00:00.000Z")])
        let answer = try server.get("/v1/messages/\(C.message)/opens", key: C.secretA)
        #expect(answer.status == 200 && answer.body == "{\"hours\":[]}\n")
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var description: String
        var method = "GET"
        var path: String
        var key: String?
        var status: Int
        var words: String
    }

    static let refusals: [Refusal] = [
        .init(
            description: "a mobile key cannot read the hourly opens", path: "/v1/messages/msg_a/opens", key: C.mobileA, status: 403,
            words: "mobile key"),
        .init(
            description: "a secret key without deliveries:read cannot read the hourly opens", path: "/v1/messages/msg_a/opens",
            key: C.secretANoScope, status: 403, words: "deliveries:read"),
        .init(
            description: "a mobile key cannot read a message", path: "/v1/messages/msg_a", key: C.mobileA, status: 403,
            words: "use a secret key"),
        .init(
            description: "the upload tests' key is a mobile key", path: "/v1/messages/msg_a", key: "test-mobile-key", status: 403,
            words: "mobile key"),
        .init(
            description: "an unknown key is 401", path: "/v1/messages/msg_a/opens", key: "carillon_sk_test_nobody", status: 401,
            words: "not recognised"),
        .init(description: "no key is 401", path: "/v1/messages/msg_a", key: nil, status: 401, words: "Authorization"),
        .init(
            description: "campaigns from another app return 404", path: "/v1/messages/msg_b/opens", key: C.secretA, status: 404,
            words: "no message msg_b"),
        .init(
            description: "another app's message is 404", path: "/v1/messages/msg_b", key: C.secretA, status: 404, words: "no message msg_b"),
        .init(
            description: "an unknown message is 404", path: "/v1/messages/msg_zz", key: C.secretA, status: 404, words: "no message msg_zz"),
        .init(
            description: "a secret key cannot post events", method: "POST", path: "/v1/events", key: C.secretA, status: 403,
            words: "use a mobile key"),
    ]

    @Test(arguments: refusals)
    func whichKeysMayReadWhat(_ refusal: Refusal) throws {
        let server = try C.server()
        let answer = try server.request(
            refusal.method, refusal.path, key: refusal.key, body: refusal.method == "POST" ? #"{"events":[]}"# : nil)
        #expect(answer.status == refusal.status, "\(refusal): \(answer.status) \(answer.body)")
        #expect((answer.json["error"] as? String)?.contains(refusal.words) == true, "\(refusal): \(answer.body)")
    }

    @Test func aFixtureItCannotReadStopsItWithOneLineNamingTheFile() throws {
        let work = TemporaryDirectory("stand-in-fixture")
        defer { work.remove() }
        let fixture = try work.write("fixture.json", #"{"messages":[{"id":"m","app":"a","created_at":"yesterday"}]}"#)
        let result = try Command.run(
            "/usr/bin/env", ["python3", Paths.testAssets("Server/events_api.py"), "--fixture", fixture, "--exit-on-stdin-eof"])
        #expect(result.status == 1)
        #expect(result.standardError == "events_api.py: \(fixture): messages[0] needs id, app and created_at (YYYY-MM-DDTHH:MM:SS.fffZ)\n")
    }
}
