/// How far a stream is through its input, at one moment: what the progress line says.
struct InputProgress: Equatable {
    /// Payload positions read (this shard's and the others').
    var positions: Int
    /// Bytes of JSON Lines lines handed on (blank lines aside), and of payload files passed.
    var bytesRead: Int
    /// Whether the input has been read to its end.
    var ended: Bool
}
