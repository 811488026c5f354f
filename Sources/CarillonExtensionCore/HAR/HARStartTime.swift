/// `startedDateTime` as exporters write it: ISO 8601 with any number of fraction digits (mitmproxy
/// writes microseconds) and `Z` or an offset.
enum HARStartTime {
    /// The instant, its fraction cut to milliseconds; nil when it is not such a date-time.
    static func parse(_ text: String) -> Timestamp? {
        guard text.utf8.count <= 64 else { return nil }
        var bytes = Array(text.utf8)
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            var end = dot + 1
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end - dot - 1 > 3 { bytes.removeSubrange((dot + 4)..<end) }
        }
        return Timestamp(iso8601: String(decoding: bytes, as: UTF8.self))
    }
}
