/// A property list that cannot be read: which form, and what is wrong with it (and where, as an offset
/// or a line), as one sentence.
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "binary property list: object 3 refers to object 9 of 4".
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
