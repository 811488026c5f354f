/// One line of a sent log (``SentLog``), read back: the event sent, when its request left (when the log
/// says) and when its 2xx arrived.
package struct SentLogLine: Sendable, Equatable {
    /// The event as it was sent.
    package var event: Event
    /// When the batch's request left (`posted_at`), or nil for a line without it.
    package var postedAt: Timestamp?
    /// When the 2xx arrived (`sent_at`).
    package var sentAt: Timestamp

    /// A line as written.
    package init(event: Event, postedAt: Timestamp?, sentAt: Timestamp) {
        self.event = event
        self.postedAt = postedAt
        self.sentAt = sentAt
    }

    /// What is wrong with a line.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The problem, naming the member.
        package var message: String
        package var description: String { message }
    }

    /// Reads one line (without its `\n`): `{"type","delivery_id","at","sent_at"}`, `posted_at` optional.
    ///
    /// - Throws: ``Problem`` naming what is wrong.
    package init(parsing bytes: some Collection<UInt8>) throws(Problem) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maximumDepth: 4)
        } catch {
            throw Problem(message: "not JSON: \(error)")
        }
        guard case .object = value else { throw Problem(message: "not a JSON object") }
        guard case .string(let typeText)? = value["type"], let type = EventType(rawValue: typeText) else {
            throw Problem(message: "type is not received or opened")
        }
        guard case .string(let idText)? = value["delivery_id"], let id = DeliveryID(idText) else {
            throw Problem(message: "delivery_id is not a delivery id")
        }
        func time(_ name: String) throws(Problem) -> Timestamp {
            guard case .string(let text)? = value[name], let time = Timestamp(iso8601: text) else {
                throw Problem(message: "\(name) is not a timestamp")
            }
            return time
        }
        let at = try time("at")
        let sentAt = try time("sent_at")
        let postedAt: Timestamp? = value["posted_at"] == nil ? nil : try time("posted_at")
        self.init(event: Event(type: type, deliveryID: id, at: at), postedAt: postedAt, sentAt: sentAt)
    }
}
