/// The `httpVersion` strings real exporters write, mapped onto the trace's "1.0", "1.1", "2" and "3".
package enum HARHTTPVersion {
    /// "HTTP/1.1" → "1.1"; "h2", "http/2.0", "HTTP/2", "2 2" → "2"; "h3", "http/2.0+quic/46", "HTTP/3" → "3";
    /// nil for anything else ("spdy", "K", an empty string), which the trace then leaves out.
    ///
    /// Chrome names QUIC as `http/2.0+quic/<draft>`: that is HTTP/3 (or its draft), not HTTP/2.
    package static func normalised(_ text: String) -> String? {
        let lowered = text.lowercased().filter { $0 != " " }
        if lowered.contains("quic") || lowered == "h3" || lowered.hasPrefix("h3-") { return "3" }
        let bare = lowered.hasPrefix("http/") ? String(lowered.dropFirst(5)) : lowered
        switch bare {
        case "1.0", "http1.0": return "1.0"
        case "1.1", "http1.1", "h1", "http/1.1": return "1.1"
        case "2", "2.0", "h2", "h2c", "22": return "2"
        case "3", "3.0": return "3"
        default: return nil
        }
    }
}
