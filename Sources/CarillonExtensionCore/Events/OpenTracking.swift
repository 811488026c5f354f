/// The app's `didOpen(userInfo:)`: queues an `opened` event when the user taps a Carillon notification.
/// What a tap did is a ``TrackingResult`` (never ``TrackingResult/failed(_:_:)``: a queue that cannot be
/// written is thrown, or the error in the batch's results).
public enum OpenTracking {
    /// Queues `opened` at `at` for the payload's delivery id; payloads without a valid stamp (object or
    /// Android string form, see `CarillonStamp`) are ignored.
    ///
    /// - Throws: ``FileSystemError`` when the queue cannot be written.
    public static func didOpen(userInfo: JSONValue, at: Timestamp, queue: EventQueue) throws(FileSystemError) -> TrackingResult {
        var warnings: [String] = []
        return try didOpen(userInfo: userInfo, at: at, queue: queue, warnings: &warnings)
    }

    /// ``didOpen(userInfo:at:queue:)``, adding to `warnings` what the queue put right on the way (a
    /// counter rebuilt, the queue renumbered).
    public static func didOpen(
        userInfo: JSONValue, at: Timestamp, queue: EventQueue, warnings: inout [String]
    ) throws(FileSystemError) -> TrackingResult {
        try didOpen([userInfo], at: at, queue: queue, warnings: &warnings)[0].get()
    }

    /// ``didOpen(userInfo:at:queue:warnings:)`` for several taps at `at`, their events queued together
    /// (one queue file, a handful of fsyncs): each payload's result or the error that kept its event
    /// out, in the order given. Two payloads of one delivery: the first is queued, the second is
    /// ``TrackingResult/alreadyQueued(_:)``.
    public static func didOpen(
        _ userInfos: [JSONValue], at: Timestamp, queue: EventQueue, warnings: inout [String]
    ) -> [Result<TrackingResult, FileSystemError>] {
        var results: [Result<TrackingResult, FileSystemError>] = []
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
