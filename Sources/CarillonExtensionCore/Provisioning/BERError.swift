/// An ASN.1 encoding that cannot be read (a provisioning profile's CMS envelope, DER entitlements): what
/// is wrong, and at which offset (``ReaderError``).
package typealias BERError = ReaderError<BERReading>

/// The BER reader (``BERReader``), as ``ReaderError`` tells it apart.
package enum BERReading: ReaderKind {
    package static let code = ReaderCode.ber
}
