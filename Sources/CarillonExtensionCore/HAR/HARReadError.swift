/// Why bytes are not a HAR file this reader accepts: one clear sentence, without the file's name
/// (the caller knows it).
@_spi(Tooling) public struct HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
