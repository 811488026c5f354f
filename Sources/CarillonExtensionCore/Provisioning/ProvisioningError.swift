/// A provisioning profile that cannot be read: its envelope or its property list, as one sentence.
package struct ProvisioningError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
