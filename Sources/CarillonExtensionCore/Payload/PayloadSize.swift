/// The size APNs puts its 4 KiB limit on: the bytes a provider sends, which is the payload as compact
/// JSON, not the file a person keeps (pretty-printed, with a final newline).
enum PayloadSize {
    /// The byte count of `json` (already known to be valid JSON) without its insignificant whitespace:
    /// what ``JSONWriter`` writes for it (members in order, numbers as their original text) with each
    /// string's bytes as the original has them, escapes included.
    static func compactByteCount(_ json: ArraySlice<UInt8>) -> Int {
        var count = 0
        var inString = false
        var escaped = false
        for byte in json {
            if inString {
                count += 1
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "\""): inString = true
            default: break
            }
            count += 1
        }
        return count
    }

    /// What to say about a payload's size, or nil when there is nothing to say: over the limit as
    /// compact JSON is the warning that APNs refuses it; a file over the limit only because of its
    /// whitespace says so, naming both sizes.
    static func warning(fileBytes: Int, compactBytes: Int, limit: Int = Payload.apnsMaximumBytes) -> String? {
        if compactBytes > limit {
            let file = fileBytes == compactBytes ? "" : " (the file is \(fileBytes) bytes)"
            return "payload is \(compactBytes) bytes as compact JSON\(file); APNs refuses payloads over \(limit) bytes (PayloadTooLarge)"
        }
        if fileBytes > limit {
            return "the file is \(fileBytes) bytes, over APNs' \(limit)-byte limit only because of its whitespace: "
                + "as compact JSON, what a provider sends, it is \(compactBytes) bytes, which APNs accepts"
        }
        return nil
    }
}
