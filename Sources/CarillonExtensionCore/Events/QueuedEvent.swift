/// An event as stored in the queue: the event and its place in queue order.
///
/// New queue files hold many events (format 2, ``QueuedEventFile``). Queues written before it hold
/// one file per event (format 1), still read, ordered, removed and set aside, never written:
/// `<type>-<delivery-id>.event`, holding exactly one line:
///
///     {"format":1,"sequence":17,"type":"received","delivery_id":"01937b21-0000-7000-8000-000000000000","at":"2026-08-20T09:16:44.120Z"}\n
///
/// - `format`: the version number, checked first; any other number is refused as an unknown version.
/// - `sequence`: the queue position, from the queue's counter; never reused, gaps allowed.
/// - `type`, `delivery_id`, `at`: the event, as the API takes it; type and id match the file name.
/// Unknown members are ignored, so later writers may add some without a new version.
@_spi(Tooling) public struct QueuedEvent: Sendable, Equatable {
    static let formatVersion = 1
    static let fileExtension = ".event"
    static let maximumFileBytes = 4096

    public var event: Event
    public var sequence: Int64

    /// `<type>-<delivery-id>.event`: the format-1 name of an event, which a format-1 file must match
    /// (the enqueue takes the (type, delivery id) of an old file from it without reading the file).
    public static func fileName(for type: EventType, _ id: DeliveryID) -> String {
        "\(type.rawValue)-\(id.rawValue)\(fileExtension)"
    }

    /// The file's bytes in format 1, ending with a newline (the golden file's writer, and tests' old queues).
    public func encoded() -> [UInt8] {
        encoded(version: QueuedEvent.formatVersion)
    }

    /// The event's record under format `version`: a whole format-1 file, or one line of a format-2 file.
    func encoded(version: Int) -> [UInt8] {
        RecordFile.encode(
            version: version,
            [
                (key: "sequence", value: .number(String(sequence))),
                (key: "type", value: .string(event.type.rawValue)),
                (key: "delivery_id", value: .string(event.deliveryID.rawValue)),
                (key: "at", value: .string(event.at.iso8601)),
            ])
    }

    /// Reads an event file's bytes and checks them against the file's name.
    ///
    /// - Throws: ``RecordError`` when the bytes are not a whole format-1 event record, or the name is not
    ///   `<type>-<delivery_id>.event` for its contents.
    public static func decode(_ bytes: [UInt8], fileName: String) throws(RecordError) -> QueuedEvent {
        let queued = try QueuedEvent(
            record: RecordFile(parsing: bytes, version: formatVersion, maximumBytes: maximumFileBytes))
        let expected = QueuedEvent.fileName(for: queued.event.type, queued.event.deliveryID)
        guard expected == fileName else {
            throw RecordError("file name does not match its type and delivery_id (expected \(expected))")
        }
        return queued
    }
}

// An extension, so that the memberwise initialiser stays.
extension QueuedEvent {
    /// The event a record holds in either format: its `sequence`, `type`, `delivery_id` and `at`.
    init(record: RecordFile) throws(RecordError) {
        let sequence = try record.count("sequence")
        let typeText = try record.string("type")
        guard let type = EventType(rawValue: typeText) else {
            throw RecordError("\"type\" \(RecordFile.quote(typeText)) is neither \"received\" nor \"opened\"")
        }
        let id = try record.deliveryID("delivery_id")
        let at = try record.timestamp("at")
        self.init(event: Event(type: type, deliveryID: id, at: at), sequence: sequence)
    }
}

// Format-1 file names, and queue order.
extension QueuedEvent {
    /// A visible name ending in `.event` (anything else in the queue directory is not an event file).
    static func isEventFileName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.hasSuffix(fileExtension)
    }

    /// The (type, delivery id) a canonical `<type>-<delivery-id>.event` name gives, or nil.
    static func key(fromFileName name: String) -> EventKey? {
        for type in EventType.allCases {
            let prefix = type.rawValue + "-"
            guard name.hasPrefix(prefix), name.hasSuffix(fileExtension) else { continue }
            let id = name.dropFirst(prefix.count).dropLast(fileExtension.count)
            guard let deliveryID = DeliveryID(String(id)), fileName(for: type, deliveryID) == name else { return nil }
            return EventKey(type, deliveryID)
        }
        return nil
    }

    /// Queue order: the sequence, then (for equal sequences, which only a damaged queue holds) type and id.
    static func inQueueOrder(_ a: QueuedEvent, _ b: QueuedEvent) -> Bool {
        (a.sequence, a.event.type.rawValue, a.event.deliveryID) < (b.sequence, b.event.type.rawValue, b.event.deliveryID)
    }
}
