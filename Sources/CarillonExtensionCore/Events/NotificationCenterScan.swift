/// The app's check of Notification Center at configuration and activation (SDK 0.5.0): every stamped
/// notification still shown there becomes a `received` event with `at` = its delivery date, unless its
/// delivery already has one (from a receipt, `willPresent` or an earlier scan: the first queued wins and
/// keeps its `at`). Notifications already removed cannot be recovered this way.
public enum NotificationCenterScan {
    /// The largest input read: a payload file's limit for each line, and room for thousands of ordinary
    /// notifications (iOS keeps far fewer per app).
    public static let maximumInputBytes = 16 * 1_048_576

    /// One line of the input, numbered from 1 (blank lines count).
    public struct NumberedLine: Sendable, Equatable {
        /// The line's number, from 1.
        public var number: Int
        /// What the line holds.
        public var line: DeliveredNotification.Line
    }

    /// Splits JSON Lines input at `\n` and reads each line (``DeliveredNotification/parse(line:)``). A
    /// final newline ends the last line rather than starting an empty one; a last line without one
    /// still counts. Pure: no file is read.
    public static func lines(_ bytes: [UInt8]) -> [NumberedLine] {
        var result: [NumberedLine] = []
        var start = 0
        var number = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            number += 1
            result.append(NumberedLine(number: number, line: DeliveredNotification.parse(line: bytes[start..<end])))
            start = end + 1
        }
        return result
    }

    /// What the scan did for one notification.
    public struct Entry: Sendable, Equatable {
        /// Its line in the input.
        public var line: Int
        /// What was queued for it.
        public var received: TrackingResult
    }

    /// Queues `received` for every stamped notification not yet queued, in delivery-date order (as the
    /// drain queues receipts: queue order follows arrival); returns one entry per notification in the
    /// order given. Two notifications with one delivery id: the earlier date wins.
    ///
    /// Never throws. The queue is locked once per `ReceiptDrain.chunkSize` events; after a lock
    /// timeout the rest are not tried (they would wait as long in vain) and fail with the same error.
    /// `warnings` gets what the queue put right on the way.
    public static func scan(
        _ notifications: [(line: Int, notification: DeliveredNotification)], into queue: EventQueue, warnings: inout [String]
    ) -> [Entry] {
        var results: [TrackingResult?] = Array(repeating: nil, count: notifications.count)
        var stamped: [(index: Int, event: Event)] = []
        for (index, item) in notifications.enumerated() {
            let stamp = CarillonStamp(userInfo: item.notification.userInfo)
            if let id = stamp.deliveryID {
                stamped.append((index, Event(type: .received, deliveryID: id, at: item.notification.date)))
            } else {
                results[index] = .notStamped(stamp.absenceReason ?? "not a Carillon notification")
            }
        }
        stamped.sort { ($0.event.at, $0.event.deliveryID, $0.index) < ($1.event.at, $1.event.deliveryID, $1.index) }

        var lockTimeout: FileSystemError?
        for start in stride(from: 0, to: stamped.count, by: ReceiptDrain.chunkSize) {
            let chunk = stamped[start..<min(start + ReceiptDrain.chunkSize, stamped.count)]
            if let lockTimeout {
                for item in chunk { results[item.index] = .failed(item.event.deliveryID, lockTimeout) }
                continue
            }
            let report = queue.enqueueReporting(contentsOf: chunk.map(\.event))
            warnings += report.warnings
            for (item, result) in zip(chunk, report.results) {
                results[item.index] = .from(result, event: item.event)
                if case .failure(let error) = result, error.isLockTimeout { lockTimeout = error }
            }
        }
        return zip(notifications, results).map { Entry(line: $0.line, received: $1!) }
    }
}
