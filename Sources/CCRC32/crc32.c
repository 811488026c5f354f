// CRC-32 for the PNG verifier: every byte of a PNG is under a CRC, so this runs over the whole body
// of every PNG download. zlib 1.2.13's crc32_z (Debian 12) costs about 3.9 instructions a byte, a
// third of a whole 10 MiB download's instructions; folding 64 bytes at a time with PCLMULQDQ costs
// under a tenth of that (TestAssets/Bench/README.md, "Measurements behind the code").
//
// The folding is the method of Gopal, Ozturk et al., "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ Instruction" (Intel, 2009), for the bit-reflected polynomial, with the paper's
// constants (the Linux kernel's crc32-pclmul uses the same): powers of x modulo P that move a 128-bit
// lane 512 or 128 bits on, the one for the last 64 bits, and P and mu = x^64 / P for the final
// Barrett reduction. Tests compare it with zlib for every length and alignment up to a few KiB.

#include "carillon_crc32.h"

#include <zlib.h>

uint32_t carillon_crc32_update_zlib(uint32_t state, const uint8_t *bytes, size_t count) {
    // zlib takes and returns the finished value (it inverts on the way in and out).
    return (uint32_t)crc32_z(state ^ 0xFFFFFFFFu, bytes, count) ^ 0xFFFFFFFFu;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>

// Reads 16 bytes at `p` (any alignment).
#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))

/// The folded CRC of `count` bytes (at least 64, a multiple of 16), from the running value `state`.
__attribute__((target("pclmul,sse4.1"))) static uint32_t fold(uint32_t state, const uint8_t *p, size_t count) {
    // _mm_set_epi64x takes the high half first: the low half multiplies a lane's low 64 bits (imm 0x00),
    // the high half its high 64 bits (imm 0x11).
    const __m128i by512 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i by128 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i by96 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i barrett = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);

    // Four lanes of 128 bits; the running value enters in the first.
    __m128i a = _mm_xor_si128(LOAD(p), _mm_cvtsi32_si128((int)state));
    __m128i b = LOAD(p + 16);
    __m128i c = LOAD(p + 32);
    __m128i d = LOAD(p + 48);
    p += 64;
    count -= 64;

    // Each lane moves 512 bits on (its two 64-bit halves times their constants), plus its next 16 bytes.
    while (count >= 64) {
        a = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(a, by512, 0x00), _mm_clmulepi64_si128(a, by512, 0x11)), LOAD(p));
        b = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(b, by512, 0x00), _mm_clmulepi64_si128(b, by512, 0x11)), LOAD(p + 16));
        c = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(c, by512, 0x00), _mm_clmulepi64_si128(c, by512, 0x11)), LOAD(p + 32));
        d = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(d, by512, 0x00), _mm_clmulepi64_si128(d, by512, 0x11)), LOAD(p + 48));
        p += 64;
        count -= 64;
    }

    // The four lanes into one, 128 bits at a time; then the remaining 16-byte blocks the same way.
    __m128i x = a;
    x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, by128, 0x00), _mm_clmulepi64_si128(x, by128, 0x11)), b);
    x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, by128, 0x00), _mm_clmulepi64_si128(x, by128, 0x11)), c);
    x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, by128, 0x00), _mm_clmulepi64_si128(x, by128, 0x11)), d);
    while (count >= 16) {
        x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, by128, 0x00), _mm_clmulepi64_si128(x, by128, 0x11)), LOAD(p));
        p += 16;
        count -= 16;
    }

    // 128 bits to 64: the low half times x^128 mod P, added to the high half.
    x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, by128, 0x10));
    // 64 bits to 32 (plus 32 carried): the low 32 bits times x^96 mod P, added to the rest.
    x = _mm_xor_si128(_mm_srli_si128(x, 4), _mm_clmulepi64_si128(_mm_and_si128(x, low32), by96, 0x00));
    // Barrett reduction to the 32-bit remainder: q = (low32 * mu) low32, x ^= q * P.
    __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10), low32);
    x = _mm_xor_si128(x, _mm_clmulepi64_si128(q, barrett, 0x00));
    return (uint32_t)_mm_extract_epi32(x, 1);
}

/// PCLMULQDQ (CPUID.1:ECX bit 1) and SSE4.1 (bit 19), asked once. 0 unknown, 1 yes, 2 no; a race
/// only asks twice and stores the same answer.
static int clmulState;

int carillon_crc32_uses_clmul(void) {
    int state = __atomic_load_n(&clmulState, __ATOMIC_RELAXED);
    if (state == 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        int has = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 1)) && (ecx & (1u << 19));
        state = has ? 1 : 2;
        __atomic_store_n(&clmulState, state, __ATOMIC_RELAXED);
    }
    return state == 1;
}

uint32_t carillon_crc32_update(uint32_t state, const uint8_t *bytes, size_t count) {
    if (count >= 64 && carillon_crc32_uses_clmul()) {
        size_t folded = count & ~(size_t)15;
        state = fold(state, bytes, folded);
        bytes += folded;
        count -= folded;
    }
    return count == 0 ? state : carillon_crc32_update_zlib(state, bytes, count);
}

#else

int carillon_crc32_uses_clmul(void) { return 0; }

uint32_t carillon_crc32_update(uint32_t state, const uint8_t *bytes, size_t count) {
    return carillon_crc32_update_zlib(state, bytes, count);
}

#endif
