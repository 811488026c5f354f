/// What an upload sent, kept after the queue is empty: one JSON line per event the API acknowledged
/// with a 2xx, `{"type","delivery_id","at","posted_at","sent_at"}` — `posted_at` when the batch's
/// request left, `sent_at` this device's clock when the 2xx arrived (between the two, the API received
/// the event: the window its clock rule's substitute lies in).
///
/// Durable in an order that never claims too much: the lines of a batch are written in one `write` and
/// fsynced after its 2xx and before its events leave the queue. A kill before the fsync leaves the
/// events queued (sent again later, logged again then); a kill after it at worst logs an event twice, the
/// second time with a later `sent_at`. A last line torn by a crash is cut when the log is next opened
/// (``cutBytes``): its events were still queued, so nothing is lost.
package final class SentLog {
    /// The log file.
    package let path: String
    /// Bytes of a torn last line cut when the log was opened (0: none).
    package let cutBytes: Int
    private let descriptor: Int32

    /// Opens (or creates, 0600) the log at `path` for appending.
    ///
    /// - Throws: ``FileSystemError`` when it cannot be opened, read or its torn tail cut.
    package init(appendingTo path: String) throws(FileSystemError) {
        self.path = path
        (descriptor, cutBytes) = try FileSystem.openLineLog(path)
    }

    deinit { FileSystem.closeDescriptor(descriptor) }

    /// Appends one line per event and makes them durable.
    package func append(_ events: [Event], postedAt: Timestamp, sentAt: Timestamp) throws(FileSystemError) {
        var text = ""
        for event in events {
            text += JSONWriter.string(Self.line(event, postedAt: postedAt, sentAt: sentAt)) + "\n"
        }
        try FileSystem.appendDurably(descriptor, Array(text.utf8), path: path)
    }

    /// One line's members, in their documented order.
    static func line(_ event: Event, postedAt: Timestamp, sentAt: Timestamp) -> JSONValue {
        .object([
            (key: "type", value: .string(event.type.rawValue)),
            (key: "delivery_id", value: .string(event.deliveryID.rawValue)),
            (key: "at", value: .string(event.at.iso8601)),
            (key: "posted_at", value: .string(postedAt.iso8601)),
            (key: "sent_at", value: .string(sentAt.iso8601)),
        ])
    }
}
