/// The one reader of the read-back answers' JSON (SPEC §10): `GET /v1/messages/{id}`,
/// `GET /v1/messages/{id}/opens` and an error's `{"error": "…"}`. Field names the seed does not give
/// (`deliveries`, `received_at`, `received_reported_at`) are read here and nowhere else.
///
/// Bounded: the input is at most what the client kept (its body bound), nesting is bounded by the
/// parser, and at most ``maximumDeliveries`` deliveries and ``maximumHours`` hours are accepted. Strict
/// on what is documented — each named member present with its type — and blind to members it does not
/// know (an API may grow). Pure, and a fuzz target (`FuzzAPIAnswers`).
package enum APIAnswerReader {
    /// More deliveries than the API samples (50), with room.
    package static let maximumDeliveries = 1_000
    /// More hours than the 48-hour window, with room.
    package static let maximumHours = 1_000

    /// What is wrong with an answer: which member, and how.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The problem, naming the member (`deliveries[3].opened_at is not a timestamp`).
        package var message: String
        package var description: String { message }
    }

    /// A `GET /v1/messages/{id}` answer.
    ///
    /// - Throws: ``Problem`` when it is not the documented JSON.
    package static func message(_ bytes: [UInt8]) throws(Problem) -> MessageView {
        let root = try object(bytes)
        let id = try string(root["id"], "id")
        guard let outcomes = root["outcomes"], case .object = outcomes else { throw Problem(message: "outcomes is not an object") }
        let opened = try count(outcomes["opened"], "outcomes.opened")
        guard let platformsValue = root["platforms"], case .object = platformsValue else {
            throw Problem(message: "platforms is not an object")
        }
        var platforms: [(name: String, counts: PlatformCounts)] = []
        for name in ["ios", "android"] {
            guard let value = platformsValue[name] else { continue }
            let at = "platforms.\(name)"
            guard case .object = value else { throw Problem(message: "\(at) is not an object") }
            platforms.append(
                (
                    name,
                    PlatformCounts(
                        sent: try count(value["sent"], "\(at).sent"), failed: try count(value["failed"], "\(at).failed"),
                        pending: try count(value["pending"], "\(at).pending"), opened: try count(value["opened"], "\(at).opened"),
                        total: try count(value["total"], "\(at).total"))
                ))
        }
        guard case .array(let items)? = root["deliveries"] else { throw Problem(message: "deliveries is not an array") }
        guard items.count <= maximumDeliveries else {
            throw Problem(message: "deliveries holds \(items.count) entries, more than \(maximumDeliveries)")
        }
        var deliveries: [DeliveryView] = []
        for (index, item) in items.enumerated() { deliveries.append(try delivery(item, "deliveries[\(index)]")) }
        return MessageView(id: id, opened: opened, platforms: platforms, deliveries: deliveries)
    }

    /// A `GET /v1/messages/{id}/opens` answer's hours, in order.
    ///
    /// - Throws: ``Problem`` when it is not the documented JSON.
    package static func opens(_ bytes: [UInt8]) throws(Problem) -> [HourlyOpens] {
        let root = try object(bytes)
        guard case .array(let items)? = root["hours"] else { throw Problem(message: "hours is not an array") }
        guard items.count <= maximumHours else { throw Problem(message: "hours holds \(items.count) entries, more than \(maximumHours)") }
        var hours: [HourlyOpens] = []
        for (index, item) in items.enumerated() {
            let at = "hours[\(index)]"
            guard case .object = item else { throw Problem(message: "\(at) is not an object") }
            guard let hour = try timestamp(item["hour"], "\(at).hour") else { throw Problem(message: "\(at).hour is null") }
            hours.append(HourlyOpens(hour: hour, opened: try count(item["opened"], "\(at).opened")))
        }
        return hours
    }

    /// The `error` member of an error answer (`{"error": "…"}`), or nil.
    package static func errorMessage(_ bytes: [UInt8]) -> String? {
        guard case .string(let text)? = (try? JSONParser.parse(bytes))?["error"] else { return nil }
        return text
    }

    private static func object(_ bytes: [UInt8]) throws(Problem) -> JSONValue {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw Problem(message: "not JSON: \(error)")
        }
        guard case .object = root else { throw Problem(message: "not a JSON object") }
        return root
    }

    private static func delivery(_ value: JSONValue, _ at: String) throws(Problem) -> DeliveryView {
        guard case .object = value else { throw Problem(message: "\(at) is not an object") }
        return DeliveryView(
            id: try string(value["id"], "\(at).id"), deviceID: try optionalString(value["device_id"], "\(at).device_id"),
            status: try string(value["status"], "\(at).status"), errorCode: try optionalString(value["error_code"], "\(at).error_code"),
            openedAt: try timestamp(value["opened_at"], "\(at).opened_at"),
            receivedAt: try timestamp(value["received_at"], "\(at).received_at"),
            receivedReportedAt: try timestamp(value["received_reported_at"], "\(at).received_reported_at"))
    }

    private static func string(_ value: JSONValue?, _ name: String) throws(Problem) -> String {
        guard case .string(let text)? = value else { throw Problem(message: "\(name) is \(value == nil ? "missing" : "not a string")") }
        return text
    }

    private static func optionalString(_ value: JSONValue?, _ name: String) throws(Problem) -> String? {
        if case .null? = value { return nil }
        return try string(value, name)
    }

    /// A whole number from 0 up to a billion.
    private static func count(_ value: JSONValue?, _ name: String) throws(Problem) -> Int {
        guard case .number(let text)? = value, text.utf8.count <= 10, let number = Int(text), number >= 0, number <= 1_000_000_000 else {
            throw Problem(message: "\(name) is \(value == nil ? "missing" : "not a count")")
        }
        return number
    }

    /// A timestamp in the API's form, or null.
    private static func timestamp(_ value: JSONValue?, _ name: String) throws(Problem) -> Timestamp? {
        switch value {
        case .null?: return nil
        case .string(let text)?:
            guard let time = Timestamp(iso8601: text) else { throw Problem(message: "\(name) is not a timestamp") }
            return time
        case nil: throw Problem(message: "\(name) is missing")
        default: throw Problem(message: "\(name) is not a timestamp")
        }
    }
}
