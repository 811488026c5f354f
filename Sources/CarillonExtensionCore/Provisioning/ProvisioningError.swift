/// A provisioning profile that cannot be read: its envelope or its property list (``ReaderError``).
package typealias ProvisioningError = ReaderError<ProvisioningReading>

/// The provisioning profile's reader (``ProvisioningProfile``), as ``ReaderError`` tells it apart.
package enum ProvisioningReading: ReaderKind {
    package static let code = ReaderCode.provisioningProfile
}
