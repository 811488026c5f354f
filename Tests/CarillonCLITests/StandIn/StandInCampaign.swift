import CarillonTestSupport
import Foundation

/// The campaign the stand-in's own tests read and report against: app A's message of 60 deliveries
/// (1–40 on iOS, 41–55 on Android, 56–60 written before platforms were recorded), created at 09:30 on
/// 2026-08-20, and app B's message of one; the clock at 12:10 that day unless a test moves it.
enum StandInCampaign {
    static let message = "msg_a"
    static let otherAppsMessage = "msg_b"
    static let created = "2026-08-20T09:30:00.000Z"
    static let now = "2026-08-20T12:10:00.000Z"
    static let mobileA = "carillon_mk_test_app_a"
    static let secretA = "carillon_sk_test_app_a"
    static let secretANoScope = "carillon_sk_test_app_a_noscope"
    static let mobileB = "carillon_mk_test_app_b"
    static let secretB = "carillon_sk_test_app_b"
    /// App B's one delivery.
    static let otherAppsDelivery = 1000

    /// Delivery `n` of app A's message: statuses cycle sent, sent, failed, pending; failures carry an
    /// error code.
    static func delivery(_ number: Int) -> EventsAPIFixture.Delivery {
        let platform: String? = number <= 40 ? "ios" : number <= 55 ? "android" : nil
        let status = ["sent", "sent", "failed", "pending"][number % 4]
        return EventsAPIFixture.Delivery(
            TestDeliveryID.text(number), device: "device-\(number)", platform: platform, status: status,
            errorCode: status == "failed" ? "Unregistered" : nil)
    }

    static let fixture = EventsAPIFixture(
        keys: [
            .init(mobileA, app: "app_a"), .init(secretA, app: "app_a", scopes: ["deliveries:read"]),
            .init(secretANoScope, app: "app_a"), .init(mobileB, app: "app_b"),
            .init(secretB, app: "app_b", scopes: ["deliveries:read"]),
        ],
        messages: [
            .init(message, app: "app_a", createdAt: created, deliveries: (1...60).map(delivery)),
            .init(
                otherAppsMessage, app: "app_b", createdAt: created,
                deliveries: [.init(TestDeliveryID.text(otherAppsDelivery), platform: "android")]),
        ])

    static func server(now: String? = StandInCampaign.now) throws -> EventsAPIServer {
        try EventsAPIServer(now: now, fixture: fixture)
    }

    /// One event of a `POST /v1/events` body.
    static func event(_ type: String, _ number: Int, at: String) -> String {
        #"{"type":"\#(type)","delivery_id":"\#(TestDeliveryID.text(number))","at":"\#(at)"}"#
    }

    /// Posts `events` with `key` (app A's mobile key unless said).
    @discardableResult
    static func post(_ server: EventsAPIServer, _ events: [String], key: String = mobileA) throws -> APIAnswer {
        try server.request("POST", "/v1/events", key: key, body: #"{"events":[\#(events.joined(separator: ","))]}"#)
    }

    /// `GET /v1/messages/{id}` with app A's secret key.
    static func read(_ server: EventsAPIServer, _ id: String = message, key: String = secretA) throws -> [String: Any] {
        try server.get("/v1/messages/" + id, key: key).json
    }

    /// `GET /v1/messages/{id}/opens`' rows as "hour opened".
    static func hours(_ server: EventsAPIServer) throws -> [String] {
        let rows = try server.get("/v1/messages/\(message)/opens", key: secretA).json["hours"] as? [[String: Any]]
        return (rows ?? []).map { "\($0["hour"] as? String ?? "?") \($0["opened"] as? Int ?? -1)" }
    }

    /// The sampled delivery `number` of a message answer.
    static func sampled(_ answer: [String: Any], _ number: Int) -> [String: Any]? {
        (answer["deliveries"] as? [[String: Any]])?.first { $0["id"] as? String == TestDeliveryID.text(number) }
    }
}
