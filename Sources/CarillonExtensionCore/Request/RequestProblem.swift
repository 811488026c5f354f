/// Why an input cannot be read as a request: the problem in words, naming the part at fault (a curl
/// option, an `@file`, a line of a request text, an FCM field).
package struct RequestProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
