/// Decides whether bytes are a structurally valid JPEG, PNG or GIF (SPEC §2 "Type"), from the bytes alone.
///
/// The decision never trusts a name, a URL or a `Content-Type`. It is made by ``ImageStreamVerifier``, on
/// the bytes in order, so a 10 MiB download is never held whole in memory; it never allocates by a length
/// read from the data.
///
/// What "structurally valid" means here:
///
/// - **PNG**: the 8-byte signature; a first chunk `IHDR` of length 13 whose width and height are
///   1...2^31-1, whose bit depth suits its colour type (0: 1/2/4/8/16; 2, 4, 6: 8/16; 3: 1/2/4/8),
///   with compression 0, filter 0 and interlace 0 or 1. Then every chunk: a length ≤ 2^31-1, a type of
///   four ASCII letters, the whole chunk inside the file, and a correct CRC-32 (all chunks are checked:
///   it is one sequential read). `PLTE` holds 1...256 entries and comes before `IDAT` for colour type 3;
///   at least one `IDAT`; and an `IEND` of length 0 ends it. Bytes after `IEND` are tolerated, as
///   decoders do.
/// - **JPEG**: `FF D8`, then marker segments walked one by one: fill bytes (`FF FF …`) are skipped,
///   `RSTn` and `TEM` stand alone, every other segment has a length ≥ 2 that fits the file. A frame
///   header `SOFn` (C0–C3, C5–C7, C9–CB, CD–CF) of length ≥ 8 with a nonzero width and 1...4 components
///   must come before the first `SOS` (a zero height is legal: `DNL` may give it later). Each scan's
///   entropy-coded data is not decoded, only skipped to its next marker (past stuffed `FF 00` and `RSTn`),
///   and the walk goes on — a progressive JPEG has many scans, with tables between them — until `EOI`
///   (`FF D9`), which must be there: a truncated download loses it. Bytes after `EOI` are tolerated
///   (padding, or the video that motion photos append). Huffman and quantisation tables are not checked.
/// - **GIF**: `GIF87a` or `GIF89a`; a logical screen of nonzero width and height; the global colour table
///   its flags announce; then blocks: extensions (`21`, a label, sub-blocks up to a 0 terminator), images
///   (`2C`, a 9-byte descriptor of nonzero size, an optional local colour table, an LZW minimum code size of
///   2...8, then at least one byte of data sub-blocks), up to the trailer `3B`. The code size range is the
///   GIF89a specification's (it codes even 2-colour images with 2); giflib tolerates up to 11, but no
///   conforming encoder writes anything outside 2...8, so another value is taken as corruption. At least one image and the
///   trailer are required; bytes after the trailer are tolerated. Animated GIFs (NETSCAPE2.0 loop extension,
///   graphic control extensions, many frames) are GIFs like any other.
///
/// Anything else is refused as ``Reason/unsupportedType`` with a detail that names what it is when it is
/// recognisable (WebP, HEIC/HEIF, AVIF, SVG, HTML, XML, gzip, BMP, TIFF, PDF, text, …) or what is wrong
/// with the JPEG, PNG or GIF ("PNG truncated in chunk IDAT", "JPEG has no SOF segment before SOS", …).
public enum ImageVerifier {
    /// Decides the type of an image file from its own bytes, reading it in 64 KiB pieces, and no further
    /// than the image's end (`IEND`, `EOI`, the GIF trailer) or the first fault.
    ///
    /// - Throws: ``Reason/emptyBody`` for an empty file; ``Reason/storage`` when the file cannot be opened
    ///   or read, or is not a regular file (the message names the path and `strerror`);
    ///   ``Reason/unsupportedType`` for anything that is not a structurally valid JPEG, PNG or GIF.
    public static func verify(fileAt path: String) throws(Outcome) -> ImageType {
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
    ///   structurally valid JPEG, PNG or GIF.
    public static func verify(bytes: [UInt8]) throws(Outcome) -> ImageType {
        try ImageStreamVerifier.decide(bytes, pieceSize: bytes.count).get()
    }
}

/// An `unsupported-type` outcome with `detail`.
func refusal(_ detail: String) -> Outcome {
    Outcome(.unsupportedType, detail)
}

/// `0xAB`.
func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return byte < 0x10 ? "0x0" + digits : "0x" + digits
}
