@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    /// The scan's input, `NotificationCenterScan.lines`: one numbered entry per line, numbered 1, 2, 3 …;
    /// a line is blank exactly when it holds only spaces and tabs (and a final `\r`); a refusal says why;
    /// a notification's date prints as ISO 8601 text that parses back to it, its payload is an object, and
    /// the line written anew from the two (`{"date":…,"payload":…}`) reads back the same.
    static func deliveredNotifications(_ bytes: [UInt8]) throws(FuzzFailure) {
        let lines = NotificationCenterScan.lines(bytes)
        // The input's lines, split once, and each line checked where it is (a slice, not a copy).
        let raw = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var expectedCount = raw.count
        if bytes.isEmpty || bytes.last == UInt8(ascii: "\n") { expectedCount -= 1 }
        try check(lines.count == expectedCount, "scan: \(lines.count) lines read, expected \(expectedCount)")
        for (index, (numbered, text)) in zip(lines, raw).enumerated() {
            try check(numbered.number == index + 1, "scan: line \(index + 1) numbered \(numbered.number)")
            let content = text.last == UInt8(ascii: "\r") ? text.dropLast() : text
            let isBlank = content.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            switch numbered.line {
            case .blank:
                try check(isBlank, "scan: line \(numbered.number) taken as blank")
            case .invalid(let message):
                try check(!isBlank, "scan: blank line \(numbered.number) refused")
                try check(!message.isEmpty, "scan: line \(numbered.number) refused without a message")
            case .notification(let notification):
                try check(
                    !isBlank && content.count <= DeliveredNotification.maximumLineBytes,
                    "scan: line \(numbered.number) read though blank or too long")
                try timestamp(notification.date)
                try check(notification.userInfo.isObject, "scan: payload of line \(numbered.number) is not an object")
                let rewritten = JSONWriter.string(
                    .object([
                        (key: "date", value: .string(notification.date.iso8601)), (key: "payload", value: notification.userInfo),
                    ]))
                guard case .notification(let again) = DeliveredNotification.parse(line: Array(rewritten.utf8)) else {
                    throw FuzzFailure(message: "scan: line \(numbered.number) rewritten as \(rewritten.prefix(200)) is refused")
                }
                try check(
                    again.date == notification.date && again.userInfo == notification.userInfo,
                    "scan: line \(numbered.number) rewritten reads differently")
                if let id = CarillonStamp(userInfo: notification.userInfo).deliveryID { try deliveryID(id) }
            }
        }
    }
}
