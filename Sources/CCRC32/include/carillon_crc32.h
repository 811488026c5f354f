#ifndef CARILLON_CRC32_H
#define CARILLON_CRC32_H

#include <stddef.h>
#include <stdint.h>

/// Advances a running CRC-32 (ISO 3309 / PNG / zlib: polynomial 0xEDB88320, reflected) over `count`
/// bytes. `state` is the running value, kept inverted: start with 0xFFFFFFFF and invert the last one.
/// Runs of 64 bytes and more are folded with carry-less multiplication (PCLMULQDQ) when the CPU has
/// it; everything else goes to zlib's crc32_z. Same result either way.
uint32_t carillon_crc32_update(uint32_t state, const uint8_t *bytes, size_t count);

/// 1 when this CPU takes the carry-less multiplication path, 0 when every byte goes to zlib.
int carillon_crc32_uses_clmul(void);

/// zlib's crc32_z alone, over the same running value: the reference the tests and benchmarks compare with.
uint32_t carillon_crc32_update_zlib(uint32_t state, const uint8_t *bytes, size_t count);

#endif
