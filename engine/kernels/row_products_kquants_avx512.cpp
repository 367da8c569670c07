// The K-quant products (row_products.h) with AVX-512 (F, BW, VL, DQ, VNNI).  Per super-block
// and row: the quants unpacked to unsigned bytes, 64 at a time, multiplied with the
// activation's int8 quants by vpmaddubsw (pairs to int16: at most 2·63·128, no saturation),
// and the pairs multiplied by their sub-block's scale and summed into int32 lanes by
// vpdpwssd (Q2_K: its products sc·q looked up, then vpdpbusd); the lanes scaled by d·d_x in
// float.  What the unsigned quants add is taken off through the activation's sums per 16
// (bsums): the mins of Q2_K, Q4_K and Q5_K in float (dmin), the offsets of Q3_K (4) and
// Q6_K (32) exactly in int32.
//
// Rows run in groups (kq::in_groups): each block of the activation is loaded, and regrouped
// where a type's vectors pair runs of 32 that are not neighbours, once per group, and the
// rows a group later are prefetched.  Eight rows a group kept more of the memory's bandwidth
// busy than four (Zen 5, rows far beyond the caches, k = 4096, of a plain read of the same
// bytes, one thread / two: Q4_K 0.82 / 0.96 with four, 1.08 / 1.19 with eight; Q5_K
// 0.93 / 0.83, 0.93 / 1.01), except for Q6_K, whose vectors then no longer fit the registers
// (1.15 / 1.09 with four, 1.07 / 1.02 with eight).
// GCC 12's AVX-512 intrinsics fill unused lanes from _mm512_undefined_*(), written as
// `__m512 __Y = __Y;`, which -W(maybe-)uninitialized reports once inlined (GCC PR 105593,
// fixed in GCC 13).  Silenced for this unit only; it must precede the first <immintrin.h>.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "engine/kernels/row_products_kquants.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {

namespace {

using kq::u8;
using V = __m512i;

[[gnu::always_inline]] inline float f16_at(const u8* p) {
    std::uint16_t h;
    __builtin_memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

[[gnu::always_inline]] inline V bytes(int v) {
    return _mm512_set1_epi8(static_cast<char>(v));
}

/// Byte `lo` in the low 256 bits, `hi` in the high ones.
[[gnu::always_inline]] inline V byte_halves(int lo, int hi) {
    return _mm512_inserti64x4(bytes(lo), _mm256_set1_epi8(static_cast<char>(hi)), 1);
}

/// Two 16-bit counts: `lo` in the low 256 bits, `hi` in the high ones (for vpsrlvw).
[[gnu::always_inline]] inline V counts(short lo, short hi) {
    return _mm512_inserti64x4(_mm512_set1_epi16(lo), _mm256_set1_epi16(hi), 1);
}

/// 32 words: each of the four 8-word groups (or two 16-word halves) a copy of one word of
/// `from`: the scale of a sub-block spread over the int16 pairs vpmaddubsw made of its values.
[[gnu::always_inline]] inline V words_of(V from, short a, short b, short c, short d) {
    const V index = _mm512_set_epi16(d, d, d, d, d, d, d, d, c, c, c, c, c, c, c, c, b, b, b, b, b,
                                     b, b, b, a, a, a, a, a, a, a, a);
    return _mm512_permutexvar_epi16(index, from);
}

/// 32 words: in 128-bit lane L, byte `i_L` of each lane of `from`, zero-extended.
[[gnu::always_inline]] inline V byte_words(V from, int a, int b, int c, int d) {
    const auto w = [](int i) { return static_cast<short>(0xFF00 | i); };  // high byte: zero
    const V index = _mm512_inserti64x4(
        _mm512_castsi256_si512(_mm256_setr_m128i(_mm_set1_epi16(w(a)), _mm_set1_epi16(w(b)))),
        _mm256_setr_m128i(_mm_set1_epi16(w(c)), _mm_set1_epi16(w(d))), 1);
    return _mm512_shuffle_epi8(from, index);
}

/// One block of the activation, its runs of 32 values paired as a type's quants pair them.
struct Activation {
    V q[4];             ///< 4 × 64 int8
    __m256i bsums;      ///< 16 int16
    __m256i neg_bsums;  ///< -bsums
    /// Words 8 .. 15: the sums per 32 (bsums 2j + 2j + 1), which Q4_K's and Q5_K's mins
    /// multiply; words 0 .. 7 zero.
    __m256i bsums32;
    float d;
};

[[gnu::always_inline]] inline V load(const void* p) {
    return _mm512_loadu_si512(p);
}
[[gnu::always_inline]] inline __m256i load256(const void* p) {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}
[[gnu::always_inline]] inline __m128i load128(const void* p) {
    return _mm_loadu_si128(static_cast<const __m128i*>(p));
}
/// 32 bytes in both halves.
[[gnu::always_inline]] inline V twice(const void* p) {
    return _mm512_broadcast_i64x4(load256(p));
}
/// a | (b & mask), bitwise.
[[gnu::always_inline]] inline V or_masked(V a, V b, int mask) {
    return _mm512_ternarylogic_epi32(a, b, bytes(mask), 0xF8);
}

/// The 64 quants (unsigned bytes) times the activation's, each int16 pair times its scale,
/// added to the int32 lanes of acc.
[[gnu::always_inline]] inline V add_products(V acc, V quants, V x, V scales) {
    return _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(quants, x), scales);
}

/// The int32 lanes of `sum` (Σ sc·Σ(q·q_x) in parts) times d_x·d, into acc.
[[gnu::always_inline]] inline void scale_into(__m512& acc, V sum, float dx, const u8* d) {
    acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_set1_ps(dx * f16_at(d)), acc);
}

/// d_x·d, d_x·dmin: the two halves at p (lanes 0 and 1).
[[gnu::always_inline]] inline __m128 d_and_dmin(const u8* p, float dx) {
    const __m128i halves = _mm_cvtsi32_si128(static_cast<int>(kq::u32_at(p)));
    return _mm_mul_ps(_mm_cvtph_ps(halves), _mm_set1_ps(dx));
}

/// acc -= d_x·dmin (lane 1 of d) · the int32 lanes of summ (Σ m·Σq_x in parts).
[[gnu::always_inline]] inline void take_mins(__m512& acc, __m256i summ, __m128 d) {
    acc = _mm512_fnmadd_ps(_mm512_cvtepi32_ps(_mm512_zextsi256_si512(summ)),
                           _mm512_broadcastss_ps(_mm_movehdup_ps(d)), acc);
}

/// - offset · Σ sc·Σq_x over the 16 runs of 16 (scales sc16; neg_bsums = -bsums), the int32
/// start of the sums of a type whose quants are stored as q + offset (sc·offset fits int16).
template <int Log2Offset>
[[gnu::always_inline]] inline V minus_offset(__m256i sc16, __m256i neg_bsums) {
    return _mm512_zextsi256_si512(
        _mm256_madd_epi16(_mm256_slli_epi16(sc16, Log2Offset), neg_bsums));
}

// Each type: kRows, rows a group; kRuns, the runs of 32 values (0 .. 7) in the low and high
// halves of the four vectors of quants block() makes; block() adds one super-block of a row
// to its accumulator: d_x·d·Σ sc·Σ(q·q_x) - d_x·dmin·Σ m·Σq_x.

/// Q2_K: 2-bit quants, bits 2s of qs[0..63] are runs s and 4 + s; scale and min per 16.
struct Q2K {
    using L = kq::Q2K;
    static constexpr int kRows = 8;
    static constexpr int kRuns[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m512& acc) {
        const __m128i packed = load128(b + L::scales);
        const __m128i low4 = _mm_set1_epi8(0x0F);
        // sc·q (at most 45) fits a byte, so vpshufb looks the products up and vpdpbusd sums
        // them with the activation: no multiply by the scales.  In 128-bit lane L, bytes
        // 4s + q hold sc·q for the group lane L of vector s holds (vector s: runs s, 4 + s,
        // so lane L: group 2s + L, or 8 + 2s + L - 2).
        const V group_of = _mm512_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14, 9, 11, 13, 15);
        const V table = _mm512_mullo_epi32(
            _mm512_permutexvar_epi32(group_of, _mm512_cvtepu8_epi32(_mm_and_si128(packed, low4))),
            _mm512_set1_epi32(0x03020100));
        const V qs = load(b + L::qs);
        V sum = _mm512_setzero_si512();
#pragma GCC unroll 4
        for (int s = 0; s < 4; ++s) {
            // (qs >> 2s) & 3 | 4s
            const V index = _mm512_ternarylogic_epi32(_mm512_srli_epi16(qs, 2 * s), bytes(3),
                                                      bytes(4 * s), 0xEA);
            sum = _mm512_dpbusd_epi32(sum, _mm512_shuffle_epi8(table, index), x.q[s]);
        }
        const __m128 d = d_and_dmin(b + L::d, x.d);
        acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_broadcastss_ps(d), acc);
        const __m256i m = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(packed, 4), low4));
        take_mins(acc, _mm256_madd_epi16(m, x.bsums), d);
    }
};

/// Q3_K: Q2_K's 2-bit quants plus 4 where bit r of hmask[l] is set (run r), less 4; signed
/// 6-bit scales per 16.
struct Q3K {
    using L = kq::Q3K;
    static constexpr int kRows = 8;
    static constexpr int kRuns[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m512& acc) {
        const __m256i sc16 = _mm256_cvtepi8_epi16(kq::q3k_scales_signed(b + L::scales));
        const V scales = _mm512_castsi256_si512(sc16);
        const V qs = load(b + L::qs);
        const V hmask = twice(b + L::hmask);
        V sum = minus_offset<2>(sc16, x.neg_bsums);
#pragma GCC unroll 4
        for (int s = 0; s < 4; ++s) {
            const V low = _mm512_and_si512(_mm512_srli_epi16(qs, 2 * s), bytes(3));
            // + 4 where bit s (low half: run s) or 4 + s (high half: run 4 + s) of hmask is set
            const __mmask64 set = _mm512_test_epi8_mask(hmask, byte_halves(1 << s, 1 << (s + 4)));
            const V q = _mm512_mask_add_epi8(low, set, low, bytes(4));
            const auto g = static_cast<short>(2 * s);
            sum = add_products(sum, q, x.q[s], words_of(scales, g, g + 1, g + 8, g + 9));
        }
        scale_into(acc, sum, x.d, b + L::d);
    }
};

/// Q4_K and Q5_K: nibbles of qs[64h .. 64h + 63] are runs 4h, 4h + 2 (low) and 4h + 1,
/// 4h + 3 (high); 6-bit scale and min per 32.  Q5_K adds bit r of qh[l] as 16.
template <bool Five>
struct QK45 {
    using L = std::conditional_t<Five, kq::Q5K, kq::Q4K>;
    static constexpr int kRows = 8;
    static constexpr int kRuns[4][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m512& acc) {
        const __m128i sm = kq::q4k_scales_mins(b + L::scales);
        const V sm4 = _mm512_broadcast_i32x4(sm);  // the 16 bytes in each 128-bit lane
        V sum = _mm512_setzero_si512();
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const V qs = load(b + L::qs + 64 * h);
            V low = _mm512_and_si512(qs, bytes(0x0F));
            V high = _mm512_and_si512(_mm512_srli_epi16(qs, 4), bytes(0x0F));
            if constexpr (Five) {
                // Bit r of qh to bit 4: runs 0 .. 3 from qh four bits up, shifted right by r;
                // runs 4 .. 7 from qh, by r - 4.
                const V qh = twice(b + L::qh);
                const V from = h == 0 ? _mm512_slli_epi16(qh, 4) : qh;
                low = or_masked(low, _mm512_srlv_epi16(from, counts(0, 2)), 0x10);
                high = or_masked(high, _mm512_srlv_epi16(from, counts(1, 3)), 0x10);
            }
            const int g = 4 * h;
            sum = add_products(sum, low, x.q[2 * h], byte_words(sm4, g, g, g + 2, g + 2));
            sum = add_products(sum, high, x.q[2 * h + 1],
                               byte_words(sm4, g + 1, g + 1, g + 3, g + 3));
        }
        const __m128 d = d_and_dmin(b + L::d, x.d);
        acc = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum), _mm512_broadcastss_ps(d), acc);
        take_mins(acc, _mm256_madd_epi16(_mm256_cvtepu8_epi16(sm), x.bsums32), d);
    }
};

/// Q6_K: nibbles of ql[64h .. 64h + 63] are values 128h + 0 .. 63 (low) and 64 .. 127
/// (high), bits 2k of qh[32h + l] their top two bits (run 4h + k); stored as q + 32; signed
/// 8-bit scales per 16.
struct Q6K {
    using L = kq::Q6K;
    static constexpr int kRows = 4;
    static constexpr int kRuns[4][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m512& acc) {
        const __m256i sc16 = _mm256_cvtepi8_epi16(load128(b + L::scales));
        const V scales = _mm512_castsi256_si512(sc16);
        V sum = minus_offset<5>(sc16, x.neg_bsums);
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const V ql = load(b + L::ql + 64 * h);
            // Runs k = 0, 1 take bits 0-1, 2-3 of qh: four bits up, then right by 2k, lands
            // them on bits 4-5; runs 2, 3 take bits 4-5, 6-7.
            const V qh = twice(b + L::qh + 32 * h);
            const V low =
                or_masked(_mm512_and_si512(ql, bytes(0x0F)),
                          _mm512_srlv_epi16(_mm512_slli_epi16(qh, 4), counts(0, 2)), 0x30);
            const V high = or_masked(_mm512_and_si512(_mm512_srli_epi16(ql, 4), bytes(0x0F)),
                                     _mm512_srlv_epi16(qh, counts(0, 2)), 0x30);
            const auto g = static_cast<short>(8 * h);
            sum = add_products(sum, low, x.q[2 * h], words_of(scales, g, g + 1, g + 2, g + 3));
            sum = add_products(sum, high, x.q[2 * h + 1],
                               words_of(scales, g + 4, g + 5, g + 6, g + 7));
        }
        scale_into(acc, sum, x.d, b + L::d);
    }
};

template <class T>
[[gnu::always_inline]] inline Activation activation(const RowInput& x, std::int64_t b) {
    Activation a;
    const std::int8_t* q = x.q256.data() + b * kq::kValues;
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) {
        const int lo = T::kRuns[c][0], hi = T::kRuns[c][1];
        a.q[c] = hi == lo + 1 ? load(q + 32 * lo)
                              : _mm512_inserti64x4(_mm512_castsi256_si512(load256(q + 32 * lo)),
                                                   load256(q + 32 * hi), 1);
    }
    a.bsums = load256(x.bsums.data() + b * (kq::kValues / kq::kBsumValues));
    // Each type uses some of these; the compiler drops the rest.
    a.neg_bsums = _mm256_sub_epi16(_mm256_setzero_si256(), a.bsums);
    a.bsums32 = kq::bsums_per_32(a.bsums);
    a.d = x.d256[static_cast<std::size_t>(b)];
    return a;
}

/// The products of R rows; block by block, the same blocks of the rows `ahead` (when not
/// nullptr) are prefetched.
template <class T, int R>
[[gnu::always_inline]] inline void row_group(const u8* const* rows, const u8* const* ahead,
                                             const RowInput& x, float* sums) {
    __m512 acc[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
        acc[r] = _mm512_setzero_ps();
    const std::int64_t blocks = x.k / kq::kValues;
    for (std::int64_t b = 0; b < blocks; ++b) {
        const Activation a = activation<T>(x, b);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            if (ahead) kq::prefetch_block<T::L::bytes>(ahead[r] + b * T::L::bytes);
            T::block(rows[r] + b * T::L::bytes, a, acc[r]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
        sums[r] = _mm512_reduce_add_ps(acc[r]);
}

template <class T>
void products(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
              std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    kq::in_groups<T::kRows>(base, row_bytes, order, n, y, accumulate,
                            [&]<int R>(const u8* const* rows, const u8* const* ahead, float* sums) {
                                row_group<T, R>(rows, ahead, x, sums);
                            });
}

}  // namespace

void fill_row_products_kquants_avx512(RowProductTable& table) {
    table[static_cast<int>(RowFormat::Q2_K)] = products<Q2K>;
    table[static_cast<int>(RowFormat::Q3_K)] = products<Q3K>;
    table[static_cast<int>(RowFormat::Q4_K)] = products<QK45<false>>;
    table[static_cast<int>(RowFormat::Q5_K)] = products<QK45<true>>;
    table[static_cast<int>(RowFormat::Q6_K)] = products<Q6K>;
}

}  // namespace attnviz::kernels::detail
