/// An image the verifier accepts: its type, and the damage the reference decoders skip while still
/// showing an image (SPEC §2 "Type"), one sentence each — a missing end marker, stray bytes, a bad
/// ancillary checksum, data that ends early so that only part of the image shows.
@_spi(Tooling) public struct VerifiedImage: Sendable, Equatable {
    public var type: ImageType
    /// Empty for an intact file; at most ``ImageWarnings/limit`` sentences.
    public var warnings: [String]

    public init(type: ImageType, warnings: [String] = []) {
        self.type = type
        self.warnings = warnings
    }
}
