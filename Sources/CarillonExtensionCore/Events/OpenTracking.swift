/// The app's `didOpen(userInfo:)`: queues an `opened` event when the user taps a Carillon notification.
public enum OpenTracking {
    /// What a tap did to the queue.
    public enum Result: Sendable, Equatable {
        /// A new `opened` event was queued.
        case queued(Event)
        /// An `opened` event for this delivery was already queued (an earlier tap); it is kept, with its time.
        case alreadyQueued(DeliveryID)
        /// The payload has no valid Carillon stamp, so there is nothing to report; the text says why.
        case notStamped(String)

        /// The event now queued for this tap: the new one, or nil when nothing was added.
        public var event: Event? {
            if case .queued(let event) = self { return event }
            return nil
        }
    }

    /// Queues `opened` at `at` for the payload's delivery id; payloads without a valid stamp (object or
    /// Android string form, see ``CarillonStamp``) are ignored.
    ///
    /// - Throws: ``FileSystemError`` when the queue cannot be written.
    public static func didOpen(userInfo: JSONValue, at: Timestamp, queue: EventQueue) throws(FileSystemError) -> Result {
        var warnings: [String] = []
        return try didOpen(userInfo: userInfo, at: at, queue: queue, warnings: &warnings)
    }

    /// ``didOpen(userInfo:at:queue:)``, adding to `warnings` what the queue put right on the way (a
    /// counter rebuilt, the queue renumbered).
    public static func didOpen(
        userInfo: JSONValue, at: Timestamp, queue: EventQueue, warnings: inout [String]
    ) throws(FileSystemError) -> Result {
        let stamp = CarillonStamp(userInfo: userInfo)
        guard let id = stamp.deliveryID else { return .notStamped(stamp.absenceReason ?? "not a Carillon notification") }
        let event = Event(type: .opened, deliveryID: id, at: at)
        let report = queue.enqueueReporting(contentsOf: [event])
        warnings += report.warnings
        return try report.results[0].get() ? .queued(event) : .alreadyQueued(id)
    }
}
