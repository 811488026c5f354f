/// Decides whether bytes are a JPEG, PNG or GIF that the reference decoders (libjpeg-turbo 2.1, libpng 1.6,
/// giflib 5.2) show (SPEC §2 "Type"), from the bytes alone.
///
/// The decision never trusts a name, a URL or a `Content-Type`. It is made by ``ImageStreamVerifier``, on
/// the bytes in order, so a 10 MiB download is never held whole in memory; it never allocates by a length
/// read from the data. It reads what the decoders read before decoding — signatures, chunks, segments,
/// blocks, headers, tables, checksums — and never the entropy-coded data (JPEG scans, PNG's zlib stream,
/// GIF's LZW codes), for speed. The rules of each format are in ``PNGStream``, ``JPEGStream`` (and
/// ``JPEGHeaders``) and ``GIFStream``; in short:
///
/// - what the decoders cannot decode for a reason in the structure is refused as
///   ``Reason/unsupportedType``, the detail naming the field ("JPEG SOF0 has precision 12 …", "PNG has an
///   unknown critical chunk …", "JPEG scan 1 uses Huffman AC table 2, which no DHT defines");
/// - damage they skip while still showing an image is accepted with a warning naming it
///   (``VerifiedImage/warnings``): a missing `EOI`, `IEND` or trailer, stray bytes between JPEG segments,
///   a bad ancillary-chunk CRC, damage after a PNG's image data or a GIF's first frame, a JPEG that ends
///   once its first scan has begun or a GIF after its first frame (only part of the image shows);
/// - anything else is refused with a detail that names what it is when it is recognisable (WebP,
///   HEIC/HEIF, AVIF, SVG, HTML, XML, gzip, BMP, TIFF, PDF, text, …).
@_spi(Tooling) public enum ImageVerifier {
    /// Decides the type of an image file from its own bytes, and its warnings, reading it in 64 KiB pieces,
    /// and no further than where the decision is made (`IEND`, `EOI`, the GIF trailer, or a fault).
    ///
    /// - Throws: ``Reason/emptyBody`` for an empty file; ``Reason/storage`` when the file cannot be opened
    ///   or read, or is not a regular file (the message names the path and `strerror`);
    ///   ``Reason/unsupportedType`` for anything that is not a JPEG, PNG or GIF that decoders show.
    public static func verify(fileAt path: String) throws(Outcome) -> VerifiedImage {
        var verifier = ImageStreamVerifier()
        do {
            try FileSystem.readChunks(ofRegularFile: path) { piece in
                verifier.feed(piece)
                return !verifier.isDecided
            }
        } catch {
            throw Outcome(.storage, error.description)
        }
        return try verifier.finish().get()
    }

    /// The same decision over bytes in memory (for tests and the fuzzer).
    ///
    /// - Throws: ``Reason/emptyBody`` for no bytes; ``Reason/unsupportedType`` for anything that is not a
    ///   JPEG, PNG or GIF that decoders show.
    public static func verify(bytes: [UInt8]) throws(Outcome) -> VerifiedImage {
        try ImageStreamVerifier.decide(bytes, pieceSize: bytes.count).get()
    }
}
