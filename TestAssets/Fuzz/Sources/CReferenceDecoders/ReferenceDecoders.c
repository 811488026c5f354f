// See include/ReferenceDecoders.h.
#include "ReferenceDecoders.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>
#include <jerror.h>
#include <jpeglib.h>
#include <png.h>

const unsigned long carillon_decode_pixel_limit = 1UL << 20;

static void set_message(carillon_decode_result *result, const char *message) {
    snprintf(result->message, sizeof result->message, "%s", message);
}

// MARK: - PNG

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
    /// Inside png_read_image: an error here is about the image data, unless it is about a chunk.
    int readingRows;
    /// The last read asked for more than was left.
    int shortRead;
    /// ...and it was the 8 bytes of a chunk header: libpng looked for another IDAT because the zlib
    /// stream had not ended.
    int shortReadAtHeader;
    carillon_decode_result *result;
} png_source;

static void png_read_bytes(png_structp png, png_bytep out, size_t count) {
    png_source *source = png_get_io_ptr(png);
    if (count > source->size - source->position) {
        source->shortRead = 1;
        source->shortReadAtHeader = count == 8;
        png_error(png, "read past the end of the data");
    }
    memcpy(out, source->data + source->position, count);
    source->position += count;
}

static void png_on_error(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    set_message(source->result, message);
    png_longjmp(png, 1);
}

static void png_on_warning(png_structp png, png_const_charp message) {
    png_source *source = png_get_error_ptr(png);
    if (source->result->warnings++ == 0) set_message(source->result, message);
}

/// libpng allocates a text chunk's announced length before reading it (its size limit is only a
/// warning when reading): a 2 GiB tEXt in a small file would stop the fuzzer for memory. Refused here,
/// libpng reports "out of memory" for the chunk, skips it and runs off the end of the file, as it would
/// have after the allocation.
static png_voidp png_allocate(png_structp png, png_alloc_size_t size) {
    (void)png;
    return size > (64u << 20) ? NULL : malloc(size);
}

static void png_free_memory(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

carillon_decode_result carillon_decode_png(const unsigned char *data, size_t size) {
    carillon_decode_result result = {0};
    png_source source = {data, size, 0, 0, 0, 0, &result};
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &source, png_on_error, png_on_warning,
                                               NULL, png_allocate, png_free_memory);
    if (png == NULL) { set_message(&result, "png_create_read_struct failed"); return result; }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        result.decoded = 0;
        // While reading rows, libpng reads chunks only because the zlib stream asks for more: running
        // out of them, or into a chunk that is not an IDAT, is about the zlib stream. A CRC error or the
        // file ending inside an IDAT the stream needed is about the chunks, which the tool reads.
        if (source.readingRows) {
            result.entropy = source.shortRead ? source.shortReadAtHeader : strstr(result.message, "CRC error") == NULL;
        }
        goto done;
    }
    png_set_read_fn(png, &source, png_read_bytes);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    result.width = width;
    result.height = height;
    if ((unsigned long long)width * height > carillon_decode_pixel_limit) {
        result.decoded = -1;
        goto done;
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowBytes = png_get_rowbytes(png, info);
    pixels = malloc(rowBytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) { set_message(&result, "out of memory"); goto done; }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + rowBytes * y;
    source.readingRows = 1;
    png_read_image(png, rows);
    source.readingRows = 0;
    result.consumed = source.position;
    result.decoded = 1;
done:
    png_destroy_read_struct(&png, info ? &info : NULL, NULL);
    free(pixels);
    free(rows);
    return result;
}

// MARK: - JPEG

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    carillon_decode_result *result;
} jpeg_failure;

static void jpeg_on_error(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    set_message(failure->result, text);
    longjmp(failure->jump, 1);
}

static void jpeg_on_message(j_common_ptr info, int level) {
    if (level >= 0) return;  // trace messages
    jpeg_failure *failure = (jpeg_failure *)info->err;
    if (failure->result->warnings++ == 0) {
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        set_message(failure->result, text);
    }
}

carillon_decode_result carillon_decode_jpeg(const unsigned char *data, size_t size) {
    carillon_decode_result result = {0};
    struct jpeg_decompress_struct info;
    jpeg_failure failure;
    failure.result = &result;
    info.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_on_error;
    failure.manager.emit_message = jpeg_on_message;
    JSAMPLE *volatile row = NULL;
    if (setjmp(failure.jump)) {
        result.decoded = 0;
        // The only fatal error libjpeg-turbo raises from the entropy-coded data itself.
        result.entropy = failure.manager.msg_code == JERR_BAD_DCT_COEF;
        goto done;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);
    result.width = info.image_width;
    result.height = info.image_height;
    if ((unsigned long long)info.image_width * info.image_height > carillon_decode_pixel_limit) {
        result.decoded = -1;
        goto done;
    }
    if (info.jpeg_color_space == JCS_UNKNOWN) {
        snprintf(result.message, sizeof result.message, "%d components: no colour space to display",
                 info.num_components);
        goto done;
    }
    jpeg_start_decompress(&info);
    row = malloc((size_t)info.output_width * info.output_components);
    if (row == NULL) { set_message(&result, "out of memory"); goto done; }
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&info, rows, 1);
    }
    jpeg_finish_decompress(&info);
    result.decoded = 1;
done:
    jpeg_destroy_decompress(&info);
    free(row);
    return result;
}

// MARK: - GIF

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t position;
} gif_source;

static int gif_read_bytes(GifFileType *gif, GifByteType *out, int count) {
    gif_source *source = gif->UserData;
    size_t left = source->size - source->position;
    size_t take = (size_t)count < left ? (size_t)count : left;
    memcpy(out, source->data + source->position, take);
    source->position += take;
    return (int)take;
}

carillon_decode_result carillon_decode_gif(const unsigned char *data, size_t size) {
    carillon_decode_result result = {0};
    gif_source source = {data, size, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&source, gif_read_bytes, &error);
    if (gif == NULL) {
        set_message(&result, GifErrorString(error));
        return result;
    }
    result.width = (unsigned long)gif->SWidth;
    result.height = (unsigned long)gif->SHeight;
    int frames = 0;
    GifPixelType *pixels = NULL;
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(gif, &record) == GIF_ERROR) break;
        if (record == TERMINATE_RECORD_TYPE) break;
        if (record == EXTENSION_RECORD_TYPE) {
            int code;
            GifByteType *block;
            if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) break;
            while (block != NULL) {
                if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) goto stop;
            }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) break;
        long width = gif->Image.Width, height = gif->Image.Height;
        // DGifSlurp's own check, which every giflib caller that keeps the pixels goes through.
        if (width <= 0 || height <= 0) {
            gif->Error = D_GIF_ERR_DATA_TOO_BIG;
            break;
        }
        if ((unsigned long long)width * height > carillon_decode_pixel_limit) {
            result.decoded = frames > 0 ? 1 : -1;
            goto close;
        }
        pixels = realloc(pixels, (size_t)(width * height));
        if (pixels == NULL) { set_message(&result, "out of memory"); goto close; }
        if (DGifGetLine(gif, pixels, (int)(width * height)) == GIF_ERROR) {
            if (frames == 0) {
                result.entropy = gif->Error == D_GIF_ERR_IMAGE_DEFECT || gif->Error == D_GIF_ERR_EOF_TOO_SOON;
            }
            break;
        }
        frames++;
    }
stop:
    if (gif->Error != 0) {
        if (frames > 0) result.warnings++;
        set_message(&result, GifErrorString(gif->Error));
    }
    result.decoded = frames > 0;
    if (frames == 0 && gif->Error == 0) set_message(&result, "no image");
close:
    DGifCloseFile(gif, &error);
    free(pixels);
    return result;
}
