/// Whether a curl command is a push request rather than any other use of curl (a script fetching an
/// image, a note showing `curl -v`): it aims at APNs or FCM — their hosts, APNs' `/3/device/` path,
/// FCM's `/v1/projects/…/messages:send` — or carries `apns-*` header fields or an `aps` payload. A
/// script or note beside the payloads that uses curl for something else is not taken for a request
/// (Requests.md). Pure.
package enum PushCommand {
    /// What in a word marks a push request, lowercased: a host or path of APNs' or FCM's, or a payload.
    static let markers: [String] = [
        "push.apple.com", RequestReader.fcmHost, "/3/device/", "/messages:send", "\"aps\"",
    ]

    /// Whether the command's words (curl's arguments, expanded) make a push request.
    package static func aims(_ words: [[UInt8]]) -> Bool {
        words.contains { word in
            let text = String(decoding: word, as: UTF8.self).lowercased()
            // `-H 'apns-push-type: alert'`, or a cluster `-Happns-topic: …`.
            if text.hasPrefix("apns-") || text.hasPrefix("-hapns-") { return true }
            return markers.contains { text.contains($0) }
        }
    }

    /// Whether a text that could not be read as a script mentions a push request at all (what a curl
    /// command that cannot be read is taken for a request by, so that its line says why).
    package static func mentions(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        return text.contains("apns-") || markers.contains { text.contains($0) }
    }
}
