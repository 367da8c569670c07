// Internal to the K-quant product units (row_products_kquants_{scalar,avx2,avx512}.cpp): the
// super-block layouts (as engine/io/gguf_quants.cpp reads them), the unpacking of their
// packed sub-block scales (scalar for the references, in a vector for the SIMD units), and
// the SIMD units' walk over the rows.  Everything is in an anonymous namespace and calls no
// inline standard-library function, so a unit compiled with wider -m flags shares no code
// with the rest of the program (softmax_impl.h gives the reason).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__AVX2__)
#include <immintrin.h>

#include "engine/kernels/row_products_rows.h"
#endif

namespace attnviz::kernels {
namespace {

namespace kq {

using u8 = std::uint8_t;

/// Values per super-block, and per sum of RowInput::bsums.
constexpr int kValues = 256;
constexpr int kBsumValues = 16;

// Byte offsets within a super-block (ggml's block_qK_K structs, no padding).
struct Q2K {  // u8 scales[16] (scale | min << 4, per 16); u8 qs[64] (2 bits); half d, dmin
    static constexpr int scales = 0, qs = 16, d = 80, dmin = 82, bytes = 84;
};
struct Q3K {  // u8 hmask[32]; u8 qs[64] (2 bits); u8 scales[12] (16 × 6 bits); half d
    static constexpr int hmask = 0, qs = 32, scales = 96, d = 108, bytes = 110;
};
struct Q4K {  // half d, dmin; u8 scales[12] (8 scales, 8 mins, 6 bits); u8 qs[128] (4 bits)
    static constexpr int d = 0, dmin = 2, scales = 4, qs = 16, bytes = 144;
};
struct Q5K {  // as Q4_K, then u8 qh[32] (the fifth bits) before qs
    static constexpr int d = 0, dmin = 2, scales = 4, qh = 16, qs = 48, bytes = 176;
};
struct Q6K {  // u8 ql[128] (low 4 bits); u8 qh[64] (high 2 bits); i8 scales[16]; half d
    static constexpr int ql = 0, qh = 128, scales = 192, d = 208, bytes = 210;
};

[[gnu::always_inline]] inline std::uint32_t u32_at(const u8* p) {
    std::uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

/// Q4_K's and Q5_K's 12 bytes of 6-bit values as 16 bytes (four little-endian words):
/// bytes 0..7 the scales of the eight sub-blocks of 32, bytes 8..15 their mins.  ggml packs
/// scales 4..7 and mins 4..7 as the nibbles of bytes 8..11, their top two bits in the top
/// bits of bytes 0..7.
[[gnu::always_inline]] inline void q4k_scales_mins(const u8* s, std::uint32_t out[4]) {
    const std::uint32_t a = u32_at(s), b = u32_at(s + 4), c = u32_at(s + 8);
    constexpr std::uint32_t low6 = 0x3F3F3F3F, low4 = 0x0F0F0F0F, low2 = 0x03030303;
    out[0] = a & low6;
    out[1] = (c & low4) | ((a >> 6) & low2) << 4;
    out[2] = b & low6;
    out[3] = ((c >> 4) & low4) | ((b >> 6) & low2) << 4;
}

/// Q3_K's 12 bytes of 6-bit scales as 16 bytes 0..63, one per 16 values (the scale is the
/// byte - 32): the low nibbles of bytes 0..7 then their high nibbles, each with two bits of
/// bytes 8..11.
[[gnu::always_inline]] inline void q3k_scales(const u8* s, std::uint32_t out[4]) {
    const std::uint32_t a = u32_at(s), b = u32_at(s + 4), c = u32_at(s + 8);
    constexpr std::uint32_t low4 = 0x0F0F0F0F, low2 = 0x03030303;
    out[0] = (a & low4) | (c & low2) << 4;
    out[1] = (b & low4) | ((c >> 2) & low2) << 4;
    out[2] = ((a >> 4) & low4) | ((c >> 4) & low2) << 4;
    out[3] = ((b >> 4) & low4) | ((c >> 6) & low2) << 4;
}

#if defined(__AVX2__)
// The same two unpackings in a vector, for the SIMD units (a scalar unpacking moved into a
// vector through the stack stalled on store forwarding: Q3_K ran at a quarter of its speed).

/// q4k_scales_mins: 8 scales then 8 mins, a byte each.  Reads 16 bytes at s.
[[gnu::always_inline]] inline __m128i q4k_scales_mins(const u8* s) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));  // words a b c
    const __m128i low = _mm_and_si128(
        _mm_srlv_epi32(_mm_shuffle_epi32(v, 0x98), _mm_setr_epi32(0, 0, 0, 4)),  // a c b c
        _mm_setr_epi32(0x3F3F3F3F, 0x0F0F0F0F, 0x3F3F3F3F, 0x0F0F0F0F));
    const __m128i top = _mm_and_si128(_mm_srli_epi32(_mm_shuffle_epi32(v, 0x50), 2),  // a a b b
                                      _mm_setr_epi32(0, 0x30303030, 0, 0x30303030));
    return _mm_or_si128(low, top);
}

/// q3k_scales, less 32: the 16 signed scales, a byte each.  Reads s - 2 .. s + 13 (in a Q3_K
/// block: the last bytes of qs, the scales, d), nothing past the block.
[[gnu::always_inline]] inline __m128i q3k_scales_signed(const u8* s) {
    const __m128i v = _mm_srli_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s - 2)), 2);
    const __m128i low = _mm_and_si128(
        _mm_srlv_epi32(_mm_shuffle_epi32(v, 0x44), _mm_setr_epi32(0, 0, 4, 4)),  // a b a b
        _mm_set1_epi8(0x0F));
    const __m128i top = _mm_and_si128(
        _mm_srlv_epi32(_mm_shuffle_epi32(v, 0xAA), _mm_setr_epi32(0, 2, 4, 6)),  // c c c c
        _mm_set1_epi8(0x03));
    return _mm_sub_epi8(_mm_or_si128(low, _mm_slli_epi32(top, 4)), _mm_set1_epi8(32));
}

/// The activation's sums per 32 (bsums 2j + 2j + 1, j = 0 .. 7) as words 8 .. 15, words
/// 0 .. 7 zero: what the mins of Q4_K and Q5_K multiply, placed so that vpmaddwd with the
/// zero-extended q4k_scales_mins (words 8 .. 15 the mins) sums min_j · bsum32_j.
[[gnu::always_inline]] inline __m256i bsums_per_32(__m256i bsums) {
    const __m256i pairs = _mm256_madd_epi16(bsums, _mm256_set1_epi16(1));  // 8 int32
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(pairs, pairs), 0x80);
    return _mm256_blend_epi32(_mm256_setzero_si256(), words, 0xF0);
}
#endif

/// Prefetches the cache lines of one super-block of `Bytes` bytes at p (any alignment).
template <int Bytes>
[[gnu::always_inline]] inline void prefetch_block(const u8* p) {
    for (int at = 0; at < Bytes; at += 64)
        __builtin_prefetch(p + at);
    __builtin_prefetch(p + Bytes - 1);
}

#if defined(__AVX2__)
/// y[i] (+)= the product of row i, for i in [0, n): rows in groups of R, a group's products
/// made by run.template operator()<R>(rows, ahead, sums), `ahead` the rows whose same blocks
/// to prefetch; the last n % R rows one at a time.  The walk and its prefetch distance are the
/// float and legacy kernels' (row_products_rows.h: each_row_group): with blocks prefetched
/// 2 KiB ahead Q4_K (k = 4096, one thread) kept 0.71 of a plain read's bandwidth, 4 KiB 0.83,
/// 8 KiB 0.94, 16 KiB 0.82.
template <class Run>
struct GroupRun {
    Run* fn;
    template <int G>
    [[gnu::always_inline]] void run(const u8** rows, const u8** ahead, float* sums) const {
        fn->template operator()<G>(rows, ahead, sums);
    }
};

template <int R, class Run>
[[gnu::always_inline]] inline void in_groups(const std::byte* base, std::size_t row_bytes,
                                             const std::int64_t* order, std::int64_t n, float* y,
                                             bool accumulate, Run run) {
    each_row_group<GroupRun<Run>, R>(base, row_bytes, order, n, y, accumulate, GroupRun<Run>{&run});
}
#endif

}  // namespace kq

}  // namespace
}  // namespace attnviz::kernels
