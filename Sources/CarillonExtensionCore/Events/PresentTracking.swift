/// The app's `willPresent(userInfo:)` (SDK 0.5.0): a notification arrives while the app is in the
/// foreground. A stamped payload queues a `received` event at that instant; every payload, stamped or
/// not, reaches `onReceived`, whose answer is how the system shows it.
public enum PresentTracking {
    /// The app's handler: given the delivery id (nil for a payload without a Carillon stamp), the
    /// presentation options to pass to the system.
    public typealias OnReceived = @Sendable (DeliveryID?) -> [PresentationOption]

    /// What one `willPresent` did.
    public struct Result: Sendable, Equatable {
        /// What happened to the queue.
        public var received: ReceivedResult
        /// What to hand to the system's completion handler.
        public var presentation: [PresentationOption]
    }

    /// Queues `received` at `at` for a stamped payload (object or Android string form, see
    /// ``CarillonStamp``) unless one is already queued for its delivery, then asks `onReceived` (without
    /// one, ``PresentationOption/sdkDefault``). The receipt is queued whatever the presentation.
    ///
    /// Never throws: a queue that cannot be written is ``ReceivedResult/failed(_:_:)``, and the
    /// notification is presented all the same. `warnings` gets what the queue put right on the way.
    public static func willPresent(
        userInfo: JSONValue, at: Timestamp, queue: EventQueue, onReceived: OnReceived? = nil, warnings: inout [String]
    ) -> Result {
        let stamp = CarillonStamp(userInfo: userInfo)
        let received: ReceivedResult
        if let id = stamp.deliveryID {
            let event = Event(type: .received, deliveryID: id, at: at)
            let report = queue.enqueueReporting(contentsOf: [event])
            warnings += report.warnings
            received = .from(report.results[0], event: event)
        } else {
            received = .notStamped(stamp.absenceReason ?? "not a Carillon notification")
        }
        return Result(received: received, presentation: onReceived?(stamp.deliveryID) ?? PresentationOption.sdkDefault)
    }
}
