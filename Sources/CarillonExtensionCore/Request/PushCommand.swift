/// Whether a curl command is a push request rather than any other use of curl (a script fetching an
/// image, a note showing `curl -v`): it aims at APNs or FCM — their hosts, APNs' `/3/device/` path,
/// FCM's `/v1/projects/…/messages:send` — or carries `apns-*` header fields or an `aps` payload. A
/// script or note beside the payloads that uses curl for something else is not taken for a request
/// (Requests.md). Pure; compares bytes in place, ignoring ASCII case, allocating nothing.
package enum PushCommand {
    /// What in a word marks a push request, lowercased: a host or path of APNs' or FCM's, or a payload.
    static let markers: [[UInt8]] = [
        "push.apple.com", RequestReader.fcmHost, "/3/device/", "/messages:send", "\"aps\"",
    ].map { Array($0.utf8) }

    static let fieldPrefix = Array("apns-".utf8)
    static let clusterPrefix = Array("-hapns-".utf8)

    /// Whether the command's words (curl's arguments, expanded) make a push request.
    package static func aims(_ words: [[UInt8]]) -> Bool {
        words.contains { word in
            // `-H 'apns-push-type: alert'`, or a cluster `-Happns-topic: …`.
            if startsCaseless(word, fieldPrefix) || startsCaseless(word, clusterPrefix) { return true }
            return markers.contains { containsCaseless(word, $0) }
        }
    }

    /// Whether a text that could not be read as a script mentions a push request at all (what a curl
    /// command that cannot be read is taken for a request by, so that its line says why).
    package static func mentions(_ bytes: [UInt8]) -> Bool {
        containsCaseless(bytes, fieldPrefix) || markers.contains { containsCaseless(bytes, $0) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func startsCaseless(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
        bytes.count >= prefix.count && zip(bytes, prefix).allSatisfy { lower($0) == $1 }
    }

    /// Whether lowercased `needle` occurs in `bytes`, ignoring ASCII case.
    static func containsCaseless(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let last = buffer.count - needle.count
            while index <= last {
                if lower(buffer[index]) == first {
                    var matched = 1
                    while matched < needle.count && lower(buffer[index + matched]) == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                index += 1
            }
            return false
        }
    }
}
