/// Why a bundle cannot be merged: cut short, damaged, or not a bundle at all; with the line at fault
/// where one is.
package struct ResultBundleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as a sentence without the file's name.
    package var message: String
    /// The 1-based line at fault, when one is.
    package var line: Int?

    package init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }

    /// "line 3: …", or the message alone.
    package var description: String { line.map { "line \($0): \(message)" } ?? message }
}
