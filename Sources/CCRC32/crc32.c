// CRC-32 for the PNG verifier: every byte of a PNG is under a CRC, so this runs over the whole body
// of every PNG download, and zlib's byte-table crc32_z was then a large share of a big download's
// work; folding with carry-less multiplication is much cheaper (TestAssets/Bench/README.md,
// "Measurements behind the code", has the figures).
//
// The folding is the method of Gopal, Ozturk et al., "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ Instruction" (Intel, 2009), for the bit-reflected polynomial. Its constants are
// k(n) = reflect32(x^n mod P) << 1 for the distances a lane moves: 512 ± 32 bits (four 128-bit lanes),
// 1024 ± 32 (eight, two to a 256-bit register), 128 ± 32 (one), 64; and P and mu = x^64 / P for the
// final Barrett reduction (the same values as the Linux kernel's crc32-pclmul). Tests compare every
// method with zlib for every length and alignment up to a few KiB.

#include "carillon_crc32.h"

#include <zlib.h>

static uint32_t update_zlib(uint32_t state, const uint8_t *bytes, size_t count) {
    // zlib takes and returns the finished value (it inverts on the way in and out).
    return (uint32_t)crc32_z(state ^ 0xFFFFFFFFu, bytes, count) ^ 0xFFFFFFFFu;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>

#define LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define LOAD256(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

#define CLMUL_TARGET __attribute__((target("pclmul,sse4.1")))
#define WIDE_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul,sse4.1")))

/// One lane moved on by the distance `k` is for (its two 64-bit halves times their constants), plus `next`.
CLMUL_TARGET static inline __m128i fold128(__m128i lane, __m128i k, __m128i next) {
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(lane, k, 0x00), _mm_clmulepi64_si128(lane, k, 0x11)), next);
}

/// The constants for one lane of 128 bits: _mm_set_epi64x takes the high half first.
#define K128 _mm_set_epi64x(0x00ccaa009e, 0x01751997d0)

/// From one 128-bit lane `x` holding the folded value, with `count` (< 16 more than a multiple of 16)
/// bytes left at `p`: folds the whole 16-byte blocks in, then reduces to the 32-bit running value.
CLMUL_TARGET static uint32_t finish(__m128i x, const uint8_t *p, size_t count) {
    const __m128i by96 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i barrett = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
    while (count >= 16) {
        x = fold128(x, K128, LOAD(p));
        p += 16;
        count -= 16;
    }
    // 128 bits to 64: the low half times x^(128-32) mod P, added to the high half.
    x = _mm_xor_si128(_mm_srli_si128(x, 8), _mm_clmulepi64_si128(x, K128, 0x10));
    // 64 bits to 32 (plus 32 carried): the low 32 bits times x^64 mod P, added to the rest.
    x = _mm_xor_si128(_mm_srli_si128(x, 4), _mm_clmulepi64_si128(_mm_and_si128(x, low32), by96, 0x00));
    // Barrett reduction to the 32-bit remainder: q = (low32 * mu) low32, x ^= q * P.
    __m128i q = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, low32), barrett, 0x10), low32);
    x = _mm_xor_si128(x, _mm_clmulepi64_si128(q, barrett, 0x00));
    return (uint32_t)_mm_extract_epi32(x, 1);
}

/// The folded CRC of `count` bytes (at least 64, a multiple of 16) from the running value `state`, four
/// 128-bit lanes at a time.
CLMUL_TARGET static uint32_t fold_clmul(uint32_t state, const uint8_t *p, size_t count) {
    const __m128i by512 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    __m128i a = _mm_xor_si128(LOAD(p), _mm_cvtsi32_si128((int)state));  // the running value enters lane one
    __m128i b = LOAD(p + 16);
    __m128i c = LOAD(p + 32);
    __m128i d = LOAD(p + 48);
    p += 64;
    count -= 64;
    while (count >= 64) {
        a = fold128(a, by512, LOAD(p));
        b = fold128(b, by512, LOAD(p + 16));
        c = fold128(c, by512, LOAD(p + 32));
        d = fold128(d, by512, LOAD(p + 48));
        p += 64;
        count -= 64;
    }
    // The four lanes into one, in order.
    __m128i x = fold128(fold128(fold128(a, K128, b), K128, c), K128, d);
    return finish(x, p, count);
}

/// The same as fold_clmul, eight 128-bit lanes at a time, two to each 256-bit register (at least 256 bytes).
WIDE_TARGET static uint32_t fold_wide(uint32_t state, const uint8_t *p, size_t count) {
    const __m256i by1024 = _mm256_set_epi64x(0x014a7fe880, 0x01e88ef372, 0x014a7fe880, 0x01e88ef372);
    __m256i a = _mm256_xor_si256(LOAD256(p), _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)state)));
    __m256i b = LOAD256(p + 32);
    __m256i c = LOAD256(p + 64);
    __m256i d = LOAD256(p + 96);
    p += 128;
    count -= 128;
    while (count >= 128) {
        a = _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(a, by1024, 0x00), _mm256_clmulepi64_epi128(a, by1024, 0x11)), LOAD256(p));
        b = _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(b, by1024, 0x00), _mm256_clmulepi64_epi128(b, by1024, 0x11)), LOAD256(p + 32));
        c = _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(c, by1024, 0x00), _mm256_clmulepi64_epi128(c, by1024, 0x11)), LOAD256(p + 64));
        d = _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(d, by1024, 0x00), _mm256_clmulepi64_epi128(d, by1024, 0x11)), LOAD256(p + 96));
        p += 128;
        count -= 128;
    }
    // The eight lanes into one, in the order of their bytes.
    __m128i x = _mm256_castsi256_si128(a);
    x = fold128(x, K128, _mm256_extracti128_si256(a, 1));
    x = fold128(x, K128, _mm256_castsi256_si128(b));
    x = fold128(x, K128, _mm256_extracti128_si256(b, 1));
    x = fold128(x, K128, _mm256_castsi256_si128(c));
    x = fold128(x, K128, _mm256_extracti128_si256(c, 1));
    x = fold128(x, K128, _mm256_castsi256_si128(d));
    x = fold128(x, K128, _mm256_extracti128_si256(d, 1));
    return finish(x, p, count);
}

/// What CPUID (and XGETBV, for the operating system's saving of AVX state) says; asked once. -1 unknown;
/// a race only asks twice and stores the same answer.
static int fastest = -1;

carillon_crc32_method carillon_crc32_fastest_method(void) {
    int known = __atomic_load_n(&fastest, __ATOMIC_RELAXED);
    if (known >= 0) return (carillon_crc32_method)known;
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    int method = CARILLON_CRC32_ZLIB;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 1)) && (ecx & (1u << 19))) {
        method = CARILLON_CRC32_CLMUL;  // PCLMULQDQ and SSE4.1
        int avx_saved = (ecx & (1u << 27)) && (ecx & (1u << 28));  // OSXSAVE and AVX
        if (avx_saved) {
            unsigned int low, high;
            __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
            avx_saved = (low & 0x6) == 0x6;  // XMM and YMM state saved by the operating system
        }
        if (avx_saved && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & (1u << 5)) && (ecx & (1u << 10))) {
            method = CARILLON_CRC32_WIDE_CLMUL;  // AVX2 and VPCLMULQDQ
        }
    }
    __atomic_store_n(&fastest, method, __ATOMIC_RELAXED);
    return (carillon_crc32_method)method;
}

uint32_t carillon_crc32_update_by(carillon_crc32_method method, uint32_t state, const uint8_t *bytes, size_t count) {
    carillon_crc32_method best = carillon_crc32_fastest_method();
    if (method > best) method = best;
    if (method == CARILLON_CRC32_WIDE_CLMUL && count >= 256) {
        size_t folded = count & ~(size_t)15;
        state = fold_wide(state, bytes, folded);
        bytes += folded;
        count -= folded;
    } else if (method != CARILLON_CRC32_ZLIB && count >= 64) {
        size_t folded = count & ~(size_t)15;
        state = fold_clmul(state, bytes, folded);
        bytes += folded;
        count -= folded;
    }
    return count == 0 ? state : update_zlib(state, bytes, count);
}

#else

carillon_crc32_method carillon_crc32_fastest_method(void) { return CARILLON_CRC32_ZLIB; }

uint32_t carillon_crc32_update_by(carillon_crc32_method method, uint32_t state, const uint8_t *bytes, size_t count) {
    (void)method;
    return update_zlib(state, bytes, count);
}

#endif

uint32_t carillon_crc32_update(uint32_t state, const uint8_t *bytes, size_t count) {
    return carillon_crc32_update_by(CARILLON_CRC32_WIDE_CLMUL, state, bytes, count);
}
