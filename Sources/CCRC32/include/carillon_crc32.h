#ifndef CARILLON_CRC32_H
#define CARILLON_CRC32_H

#include <stddef.h>
#include <stdint.h>

/// How a CRC is computed; each gives the same result.
typedef enum {
    /// zlib's crc32_z for every byte.
    CARILLON_CRC32_ZLIB = 0,
    /// Runs of 64 bytes and more folded 16 bytes a lane with PCLMULQDQ (SSE4.1), the rest by zlib.
    CARILLON_CRC32_CLMUL = 1,
    /// Runs of 256 bytes and more folded 32 bytes a lane with VPCLMULQDQ (AVX2), then as CLMUL.
    CARILLON_CRC32_WIDE_CLMUL = 2,
} carillon_crc32_method;

/// Advances a running CRC-32 (ISO 3309 / PNG / zlib: polynomial 0xEDB88320, reflected) over `count`
/// bytes by the fastest method this CPU has. `state` is the running value, kept inverted: start with
/// 0xFFFFFFFF and invert the last one.
uint32_t carillon_crc32_update(uint32_t state, const uint8_t *bytes, size_t count);

/// The fastest method this CPU (and its operating system, for AVX state) supports; asked once.
carillon_crc32_method carillon_crc32_fastest_method(void);

/// carillon_crc32_update by `method`, or by the fastest one when this CPU lacks it: what the tests use
/// to compare every method with zlib's.
uint32_t carillon_crc32_update_by(carillon_crc32_method method, uint32_t state, const uint8_t *bytes, size_t count);

#endif
