/// The `Retry-After` response header (RFC 9110 §10.2.3), read as a wait (whole milliseconds). Pure.
///
/// Both forms: delay-seconds (`120`: digits only) and an HTTP-date in the preferred IMF-fixdate form
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), whose wait is the date minus `now` (a date already past is a wait
/// of 0). The obsolete RFC 850 and asctime date forms, and anything else, are not understood: nil, and
/// the backoff decides as if there were no header.
@_spi(Tooling) public enum RetryAfter {
    /// Longest wait taken from the header, so arithmetic on it never overflows (a day).
    public static let maximum: Duration = .seconds(86_400)

    /// The wait `value` asks for, at most ``maximum``; nil when the header is not understood.
    /// `now` is the clock an HTTP-date is counted from.
    public static func wait(_ value: String, now: Timestamp) -> Duration? {
        milliseconds(value, now: now).map { .milliseconds($0) }
    }

    /// ``wait(_:now:)`` in whole milliseconds.
    private static func milliseconds(_ value: String, now: Timestamp) -> Int64? {
        let limit = maximum.wholeMilliseconds
        let text = value.trimmingSpaces
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Leading zeros are allowed; a huge number is simply "a long time".
            let digits = text.drop { $0 == "0" }
            guard digits.count <= 6, let seconds = Int64(digits.isEmpty ? "0" : String(digits)) else { return limit }
            return min(seconds * 1000, limit)
        }
        guard let date = imfFixdate(text) else { return nil }
        let wait = date.millisecondsSinceEpoch - now.millisecondsSinceEpoch
        return min(max(wait, 0), limit)
    }

    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` exactly (case-sensitive names, two-digit day, `GMT`), or nil. The
    /// day name is checked for form, not against the date (RFC 9110 lets a recipient ignore it).
    static func imfFixdate(_ text: String) -> Timestamp? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29 else { return nil }
        func slice(_ start: Int, _ length: Int) -> String { String(decoding: bytes[start..<start + length], as: UTF8.self) }
        guard days.contains(slice(0, 3)), slice(3, 2) == ", ", bytes[7] == UInt8(ascii: " "), bytes[11] == UInt8(ascii: " "),
            bytes[16] == UInt8(ascii: " "), slice(25, 4) == " GMT",
            let month = months.firstIndex(of: slice(8, 3))
        else { return nil }
        let monthText = month + 1 < 10 ? "0\(month + 1)" : "\(month + 1)"
        // The rest is Timestamp's strict ISO 8601 reader: digits, ranges, days in the month.
        return Timestamp(iso8601: "\(slice(12, 4))-\(monthText)-\(slice(5, 2))T\(slice(17, 8))Z")
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (a header value's optional whitespace).
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return "" }
        return String(scalars[first...last])
    }
}
