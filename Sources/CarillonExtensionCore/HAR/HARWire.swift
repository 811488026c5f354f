/// What carillon's own entry says about its body beyond HAR (``HARCarillon/Entry/wire``): the body
/// exactly as received, its size and SHA-256, inline in base64 or in a file beside the HAR. Another
/// exporter's entry has none. The wire bytes are facts for the trace and the notes; a replay never
/// decodes them.
enum HARWire {
    /// `_carillon.wire` of `entry`, its inline bytes decoded when they fit `limit`, a file named
    /// relative to `directory`; nil when absent.
    static func wire(_ entry: HAREntry, directory: String, limit: Int) -> RecordedWire? {
        guard let wire = entry.carillon?.wire else { return nil }
        let body: RecordedHop.Body
        switch wire.place {
        case .file(let file):
            body = .file(path: file.hasPrefix("/") ? file : directory + "/" + file)
        case .inline(let text):
            if Base64.exceeds(text, cap: limit) {
                body = .absent(why: "its inline wire bytes are longer than \(limit) bytes")
            } else if let decoded = try? Base64.decode(text) {
                body = .bytes(decoded)
            } else {
                body = .absent(why: "its inline wire bytes are not valid base64")
            }
        case .notKept:
            body = .absent(why: "its wire bytes were not kept")
        }
        return RecordedWire(bytes: wire.bytes, sha256: wire.sha256, body: body)
    }

    /// A note when inline wire bytes do not have the size recorded for them (a text cut or edited):
    /// nil when they do, or when they are in a file (the reader opens no file; the source reads it).
    static func mismatch(_ wire: RecordedWire, entry: Int) -> String? {
        guard case .bytes(let bytes) = wire.body, bytes.count != wire.bytes else { return nil }
        return "entry \(entry)'s wire bytes: \(wire.bytes) recorded, \(bytes.count) bytes kept"
    }
}
