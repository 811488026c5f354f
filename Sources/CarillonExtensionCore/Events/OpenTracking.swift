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
    /// Android string form, see `CarillonStamp`) are ignored.
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
        try didOpen([userInfo], at: at, queue: queue, warnings: &warnings)[0].get()
    }

    /// ``didOpen(userInfo:at:queue:warnings:)`` for several taps at `at`, their events queued together
    /// (one queue file, a handful of fsyncs): each payload's result or the error that kept its event
    /// out, in the order given. Two payloads of one delivery: the first is queued, the second is
    /// ``Result/alreadyQueued(_:)``.
    public static func didOpen(
        _ userInfos: [JSONValue], at: Timestamp, queue: EventQueue, warnings: inout [String]
    ) -> [Swift.Result<Result, FileSystemError>] {
        var results: [Swift.Result<Result, FileSystemError>] = []
        var stamped: [(index: Int, event: Event)] = []
        for (index, userInfo) in userInfos.enumerated() {
            let stamp = CarillonStamp(userInfo: userInfo)
            if let id = stamp.deliveryID {
                stamped.append((index, Event(type: .opened, deliveryID: id, at: at)))
                results.append(.success(.alreadyQueued(id)))  // replaced below
            } else {
                results.append(.success(.notStamped(stamp.absenceReason ?? "not a Carillon notification")))
            }
        }
        let report = queue.enqueueReporting(contentsOf: stamped.map(\.event))
        warnings += report.warnings
        for (item, result) in zip(stamped, report.results) {
            results[item.index] = result.map { $0 ? .queued(item.event) : .alreadyQueued(item.event.deliveryID) }
        }
        return results
    }
}
