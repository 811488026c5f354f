@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    // MARK: - FuzzEventQueueFile

    /// The event-queue file reader. The input is one or more event records, one per line (each line keeps
    /// its newline; the last may lack one). Each record is read under the name its own `type` and
    /// `delivery_id` give. A decoded event re-encodes and decodes equal; the decoded events make
    /// well-formed `POST /v1/events` batches; the same lines read as the Notification Center scan's input
    /// hold ``deliveredNotifications(_:)``'s invariants. When `throughQueue`, the records are also written as files of
    /// a real queue directory and `EventQueue.contents` must find exactly the events decoded here, and set
    /// aside exactly the records that did not decode.
    public static func eventQueueFile(_ bytes: [UInt8], throughQueue: Bool) throws(FuzzFailure) {
        // The same lines as the scan's input and as one format-2 queue file (`FuzzEventLines`).
        try eventLines(bytes)
        try eventRecords(bytes, throughQueue: throughQueue)
    }

    /// The records one per line (`FuzzEventQueueFile`): each decoded under the name it claims, the batches,
    /// and (when `throughQueue`) the real queue directory. See ``eventQueueFile(_:throughQueue:)``.
    public static func eventRecords(_ bytes: [UInt8], throughQueue: Bool) throws(FuzzFailure) {
        var records: [[UInt8]] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            records.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count || bytes.isEmpty { records.append(Array(bytes[start...])) }
        try decodedRecords(records, bytes.first)
        guard throughQueue, records.count <= 16 else { return }
        try throughEventQueue(records: records)
    }

    /// Each record decoded under the name it claims, and the decoded events' batches (sizes chosen by
    /// `first`, the input's first byte).
    static func decodedRecords(_ records: [[UInt8]], _ first: UInt8?) throws(FuzzFailure) {
        var decoded: [(name: String, event: QueuedEvent)] = []
        for record in records {
            let name = claimedFileName(record)
            let queued: QueuedEvent
            do {
                queued = try QueuedEvent.decode(record, fileName: name)
            } catch {
                try check(!error.message.isEmpty, "an event record refused without a message")
                continue
            }
            try queuedEvent(queued, fileName: name)
            decoded.append((name, queued))
        }

        // Queue order, as EventQueue.contents gives it.
        let ordered = decoded.map(\.event).sorted {
            ($0.sequence, $0.event.type.rawValue, $0.event.deliveryID) < ($1.sequence, $1.event.type.rawValue, $1.event.deliveryID)
        }.map(\.event)
        try batches(ordered, maximumEvents: EventBatch.maximumEvents, checkBodies: true)
        // Smaller and out-of-range batch sizes, chosen by the input, and more than one full batch.
        let sizes = [-1, 0, 1, 2, 3, 7, 101, Int.max]
        try batches(ordered, maximumEvents: sizes[Int(first ?? 0) % sizes.count], checkBodies: false)
        if !ordered.isEmpty {
            let many = Array(repeatElement(ordered, count: 201 / ordered.count + 1).joined().prefix(201))
            try batches(many, maximumEvents: EventBatch.maximumEvents, checkBodies: false)
        }
    }

    /// The whole input as the Notification Center scan's JSON Lines and as one format-2 queue file
    /// (`FuzzEventLines`, a target of its own: two more JSON parses of every line).
    public static func eventLines(_ bytes: [UInt8]) throws(FuzzFailure) {
        try deliveredNotifications(bytes)
        try eventQueueFileV2(bytes)
    }

    /// The format-2 reader (``QueuedEventFile``) on the whole input: it decodes (keeping every good
    /// line, one event per (type, delivery id), each problem said) or refuses with a message; the events
    /// it keeps re-encode into a whole file that decodes to the same events. Pure: no file is written.
    static func eventQueueFileV2(_ bytes: [UInt8]) throws(FuzzFailure) {
        let decoded: QueuedEventFile.Decoded
        do {
            decoded = try QueuedEventFile.decode(bytes)
        } catch {
            try check(!error.message.isEmpty, "a format-2 file refused without a message")
            return
        }
        try check(decoded.problems.allSatisfy { !$0.isEmpty }, "a format-2 problem without a message")
        // The reader without a JSON parser agrees with the parser on every line it takes.
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            let line = bytes[start...index]
            start = index + 1
            guard let fast = QueuedEventFile.canonicalLine(line) else { continue }
            let slow = try? QueuedEventFile.decodeLine(line)
            try check(fast == slow, "a canonical line read as \(fast) without the parser, \(String(describing: slow)) with it")
        }
        let keys = decoded.events.map { EventKey($0.event) }
        try check(Set(keys).count == keys.count, "a format-2 file decoded with two events for one (type, delivery id)")
        for queued in decoded.events {
            try check(queued.sequence >= 0, "format-2 event decoded with a negative sequence \(queued.sequence)")
            try deliveryID(queued.event.deliveryID)
            try timestamp(queued.event.at)
        }
        let encoded = QueuedEventFile.encode(decoded.events)
        let again: QueuedEventFile.Decoded
        do {
            again = try QueuedEventFile.decode(encoded)
        } catch {
            throw FuzzFailure(message: "a re-encoded format-2 file does not decode: \(error.message)")
        }
        try check(again.isWhole && again.events == decoded.events, "format-2 round trip changed the events")
        try check(QueuedEventFile.encode(again.events) == encoded, "format-2 encoding is not stable")
    }

    /// The file name a record claims: `<type>-<delivery_id>.event` from its own members, as given.
    static func claimedFileName(_ record: [UInt8]) -> String {
        guard let value = try? JSONParser.parse(record),
            case .string(let type)? = value["type"], case .string(let id)? = value["delivery_id"]
        else { return "unnamed.event" }
        return "\(type)-\(id).event"
    }

    /// A decoded event: its name is the canonical one, and it re-encodes to bytes that decode equal.
    static func queuedEvent(_ queued: QueuedEvent, fileName: String) throws(FuzzFailure) {
        try check(
            fileName == QueuedEvent.fileName(for: queued.event.type, queued.event.deliveryID),
            "event decoded under the non-canonical name \(fileName)")
        try check(queued.sequence >= 0, "event decoded with a negative sequence \(queued.sequence)")
        try deliveryID(queued.event.deliveryID)
        try timestamp(queued.event.at)
        let encoded = queued.encoded()
        let again: QueuedEvent
        do {
            again = try QueuedEvent.decode(encoded, fileName: fileName)
        } catch {
            throw FuzzFailure(message: "a re-encoded event does not decode: \(error.message)")
        }
        try check(again == queued, "event round trip changed it: \(queued) became \(again)")
        try check(again.encoded() == encoded, "event encoding is not stable")
    }

    /// `EventBatch.batches(of:)`: each batch at most the limit, all events in order, and (when `checkBodies`)
    /// each body exactly `{"events":[{"type","delivery_id","at"}, …]}`.
    static func batches(_ events: [Event], maximumEvents: Int, checkBodies: Bool) throws(FuzzFailure) {
        let limit = min(max(maximumEvents, 1), EventBatch.maximumEvents)
        let batches = EventBatch.batches(of: events, maximumEvents: maximumEvents)
        try check(batches.count == (events.count + limit - 1) / limit, "\(events.count) events made \(batches.count) batches of \(limit)")
        try check(batches.allSatisfy { !$0.events.isEmpty && $0.events.count <= limit }, "a batch is empty or over \(limit) events")
        try check(batches.flatMap(\.events) == events, "batches do not keep the events and their order")
        guard checkBodies else { return }
        for batch in batches {
            let body = batch.requestBody
            guard let value = try? JSONParser.parse(Array(body.utf8)), case .object(let top) = value, top.count == 1,
                top[0].key == "events", case .array(let items) = top[0].value, items.count == batch.events.count
            else { throw FuzzFailure(message: "a request body is not {\"events\":[…]}: \(body.prefix(300))") }
            for (item, event) in zip(items, batch.events) {
                guard case .object(let members) = item, members.map(\.key) == ["type", "delivery_id", "at"],
                    members[0].value == .string(event.type.rawValue), members[1].value == .string(event.deliveryID.rawValue),
                    members[2].value == .string(event.at.iso8601)
                else { throw FuzzFailure(message: "a request body's event is not {type, delivery_id, at}: \(JSONWriter.string(item))") }
            }
            // Another parser agrees that it is JSON.
            try check(
                (try? JSONSerialization.jsonObject(with: Data(body.utf8))) is [String: Any],
                "JSONSerialization does not read a request body")
        }
    }

    /// Writes the records into a fresh queue directory and reads it with `EventQueue.contents`.
    static func throughEventQueue(records: [[UInt8]]) throws(FuzzFailure) {
        let directory = FuzzScratch.freshDirectory("queue")
        defer { FuzzScratch.remove(directory) }
        // A record that decodes goes under its own name (a later record of the same name replaces an earlier
        // one, as the file would); one that does not, under a name of its own.
        var good: [String: QueuedEvent] = [:]
        var corrupt = 0
        for (index, record) in records.enumerated() {
            let name = claimedFileName(record)
            let queued = try? QueuedEvent.decode(record, fileName: name)
            let fileName = queued == nil ? "corrupt-\(index).event" : name
            guard FuzzScratch.writeFile(record, to: directory + "/" + fileName) else {
                throw FuzzFailure(message: "cannot write \(fileName)")
            }
            if let queued { good[name] = queued } else { corrupt += 1 }
        }
        let contents: EventQueue.Contents
        do {
            contents = try EventQueue(directory: directory).contents()
        } catch {
            throw FuzzFailure(message: "EventQueue.contents failed: \(error)")
        }
        let expected = good.values.sorted {
            ($0.sequence, $0.event.type.rawValue, $0.event.deliveryID) < ($1.sequence, $1.event.type.rawValue, $1.event.deliveryID)
        }.map(\.event)
        try check(contents.events == expected, "EventQueue.contents found \(contents.events.count) events, expected \(expected.count)")
        try check(
            contents.quarantined.count == corrupt,
            "EventQueue.contents set aside \(contents.quarantined.count) files, expected \(corrupt)")
    }
}
