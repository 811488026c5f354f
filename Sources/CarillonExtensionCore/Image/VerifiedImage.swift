/// An image the verifier accepts: its type, its geometry as the headers give it, and the damage the
/// reference decoders skip while still showing an image (SPEC §2 "Type"), one sentence each — a missing
/// end marker, stray bytes, a bad ancillary checksum, data that ends early so that only part of the
/// image shows.
///
/// The geometry is what the format's header says, read while verifying (the pixels are never decoded):
/// PNG's `IHDR`, the JPEG frame header (`SOFn`), GIF's logical screen. `frames` is 1 for PNG and JPEG;
/// for GIF it counts the image descriptors read before the decision (more than 1: animated), a frame cut
/// short included.
@_spi(Tooling) public struct VerifiedImage: Sendable, Equatable {
    public var type: ImageType
    /// Width in pixels (for GIF the logical screen's, which may be 0: decoders size it from the frames).
    public var width: Int
    /// Height in pixels (for GIF the logical screen's, which may be 0).
    public var height: Int
    /// 1 for a still image; for GIF the image descriptors read.
    public var frames: Int
    /// Empty for an intact file; at most ``ImageWarnings/limit`` sentences.
    public var warnings: [String]

    public init(type: ImageType, width: Int, height: Int, frames: Int, warnings: [String] = []) {
        self.type = type
        self.width = width
        self.height = height
        self.frames = frames
        self.warnings = warnings
    }
}
