// What libpng 1.6, libjpeg-turbo 2.1 and giflib 5.2 make of a file in memory: the FuzzImageDecoders
// target compares it with the tool's verdict. Test code only: never linked into the main package.
#ifndef CARILLON_REFERENCE_DECODERS_H
#define CARILLON_REFERENCE_DECODERS_H

#include <stddef.h>

/// The decoder's answer for one file.
typedef struct {
    /// 1: it produced an image; 0: it did not; -1: not tried (larger than `carillon_decode_pixel_limit`
    /// pixels, so the comparison is skipped).
    int decoded;
    /// 1 when `decoded` is 0 because of the entropy-coded data (JPEG scans, PNG's zlib stream, GIF's LZW
    /// codes), which the tool does not decode: a documented difference, not a disagreement.
    int entropy;
    /// Warnings the decoder gave (damage it skipped).
    int warnings;
    /// PNG: how many bytes libpng had read when the last row was decoded (the image was complete).
    size_t consumed;
    /// The size the header gives (PNG's IHDR, the JPEG frame header, GIF's logical screen), as the
    /// decoder read it; 0 when it did not get that far.
    unsigned long width, height;
    /// The error that stopped it (or, when it decoded, its first warning), as the decoder words it.
    char message[200];
} carillon_decode_result;

/// Images larger than this many pixels are not decoded (memory and time of a fuzzing run).
extern const unsigned long carillon_decode_pixel_limit;

/// libpng: `png_read_info`, then every row (`png_read_image`); the image is produced once the rows
/// are read (what follows, up to IEND, is read by `png_read_end` and cannot take the image back).
carillon_decode_result carillon_decode_png(const unsigned char *data, size_t size);

/// libjpeg-turbo: `jpeg_read_header`, `jpeg_start_decompress`, every scanline, `jpeg_finish_decompress`
/// (which reads up to EOI), from `jpeg_mem_src`. Warnings (missing EOI, stray bytes, corrupt data) do
/// not stop it. An image of a colour space libjpeg cannot name (2 or more than 4 components) is not an
/// image that displays: `decoded` is 0.
carillon_decode_result carillon_decode_jpeg(const unsigned char *data, size_t size);

/// giflib: `DGifOpen`, then records in order (`DGifGetRecordType`, `DGifGetImageDesc` and `DGifGetLine`
/// for all of each image's pixels, `DGifGetExtension`/`DGifGetExtensionNext`) up to the trailer or the
/// first error. The image is produced when at least one frame was decoded whole, as a viewer shows it.
carillon_decode_result carillon_decode_gif(const unsigned char *data, size_t size);

#endif
