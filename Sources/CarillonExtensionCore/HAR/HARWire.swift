/// What carillon's own entry says about its body beyond HAR: the body exactly as received
/// (`_carillon.wire`: size, SHA-256, inline base64 or a file beside the HAR) and the size of the last
/// decoded piece libcurl delivered (`_carillon.decoded.last_piece`). Another exporter's entry has
/// neither. The wire bytes are facts for the trace and the notes; a replay never decodes them.
enum HARWire {
    /// `_carillon.wire` of `entry`, its inline bytes decoded when they fit `limit`, a file named
    /// relative to `directory`; nil when absent or not an object with a size and a digest.
    static func wire(_ entry: HAREntry, directory: String, limit: Int) -> RecordedWire? {
        guard let wire = entry.carillon?["wire"], let bytes = count(wire["bytes"]), let sha256 = wire["sha256"]?.stringValue else {
            return nil
        }
        let body: RecordedHop.Body
        if let file = wire["_file"]?.stringValue, !file.isEmpty {
            body = .file(path: file.hasPrefix("/") ? file : directory + "/" + file)
        } else if let text = wire["text"]?.stringValue, wire["encoding"]?.stringValue?.lowercased() == "base64" {
            if Base64.significantLength(text) > Base64.maximumTextLength(forCap: limit) {
                body = .absent(why: "its inline wire bytes are longer than \(limit) bytes")
            } else if let decoded = try? Base64.decode(text) {
                body = .bytes(decoded)
            } else {
                body = .absent(why: "its inline wire bytes are not valid base64")
            }
        } else {
            body = .absent(why: "its wire bytes were not kept")
        }
        return RecordedWire(bytes: bytes, sha256: sha256, body: body)
    }

    /// `_carillon.decoded.last_piece` of `entry`, when a whole number.
    static func lastPiece(_ entry: HAREntry) -> Int? {
        count(entry.carillon?["decoded"]?["last_piece"])
    }

    /// A note when inline wire bytes do not have the size recorded for them (a text cut or edited):
    /// nil when they do, or when they are in a file (the reader opens no file; the source reads it).
    static func mismatch(_ wire: RecordedWire, entry: Int) -> String? {
        guard case .bytes(let bytes) = wire.body, bytes.count != wire.bytes else { return nil }
        return "entry \(entry)'s wire bytes: \(wire.bytes) recorded, \(bytes.count) bytes kept"
    }

    private static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number.isFinite, number >= 0, number < 1e15, number == number.rounded() else {
            return nil
        }
        return Int(number)
    }
}
