/// An ASN.1 encoding that cannot be read (a provisioning profile's CMS envelope, DER entitlements): what
/// is wrong, and at which offset, as one sentence.
package struct BERError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
