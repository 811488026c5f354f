/// Why bytes are not a HAR file this reader accepts: one clear sentence, without the file's name
/// (the caller knows it).
package struct HARReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    package var message: String

    /// An error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
