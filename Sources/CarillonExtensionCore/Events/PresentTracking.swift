/// The app's `willPresent(userInfo:)` (SDK 0.5.0): a notification arrives while the app is in the
/// foreground. A stamped payload queues a `received` event at that instant; every payload, stamped or
/// not, reaches `onReceived`, whose answer is how the system shows it.
public enum PresentTracking {
    /// The app's handler: given the delivery id (nil for a payload without a Carillon stamp), the
    /// presentation options to pass to the system.
    public typealias OnReceived = @Sendable (DeliveryID?) -> [PresentationOption]

    /// What one `willPresent` did.
    public struct Answer: Sendable, Equatable {
        /// What happened to the queue.
        public var received: TrackingResult
        /// What to hand to the system's completion handler.
        public var presentation: [PresentationOption]
    }

    /// Queues `received` at `at` for a stamped payload (object or Android string form, see
    /// `CarillonStamp`) unless one is already queued for its delivery, then asks `onReceived` (without
    /// one, ``PresentationOption/sdkDefault``). The receipt is queued whatever the presentation.
    ///
    /// Never throws: a queue that cannot be written is ``TrackingResult/failed(_:_:)``, and the
    /// notification is presented all the same. `warnings` gets what the queue put right on the way.
    public static func willPresent(
        userInfo: JSONValue, at: Timestamp, queue: EventQueue, onReceived: OnReceived? = nil, warnings: inout [String]
    ) -> Answer {
        willPresent([userInfo], at: at, queue: queue, onReceived: onReceived, warnings: &warnings)[0]
    }

    /// ``willPresent(userInfo:at:queue:onReceived:warnings:)`` for several notifications at `at`, their
    /// events queued together (one queue file, a handful of fsyncs); the results in the order given.
    /// Two payloads of one delivery: the first is queued, the second is ``TrackingResult/alreadyQueued(_:)``.
    public static func willPresent(
        _ userInfos: [JSONValue], at: Timestamp, queue: EventQueue, onReceived: OnReceived? = nil, warnings: inout [String]
    ) -> [Answer] {
        let stamps = userInfos.map(CarillonStamp.init(userInfo:))
        let stamped = stamps.enumerated().compactMap { index, stamp in
            stamp.deliveryID.map { (index: index, event: Event(type: .received, deliveryID: $0, at: at)) }
        }
        let report = queue.enqueueReporting(contentsOf: stamped.map(\.event))
        warnings += report.warnings
        var received = stamps.map { TrackingResult.notStamped($0.absenceReason ?? "not a Carillon notification") }
        for (item, result) in zip(stamped, report.results) { received[item.index] = .from(result, event: item.event) }
        return zip(stamps, received).map { stamp, received in
            Answer(received: received, presentation: onReceived?(stamp.deliveryID) ?? PresentationOption.sdkDefault)
        }
    }
}
