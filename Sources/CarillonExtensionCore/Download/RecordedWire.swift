/// A response's body exactly as received, before any decoding, as recorded beside the decoded one.
package struct RecordedWire: Sendable, Equatable {
    /// Its exact size.
    package var bytes: Int
    /// Its SHA-256, lowercase hex.
    package var sha256: String
    /// Where the bytes are: inline (out of base64) or a file beside the recording; absent when not kept.
    package var body: RecordedHop.Body

    /// Wire bytes of `bytes` bytes with digest `sha256`, kept at `body`.
    package init(bytes: Int, sha256: String, body: RecordedHop.Body) {
        self.bytes = bytes
        self.sha256 = sha256
        self.body = body
    }
}
