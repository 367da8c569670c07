// The K-quant products (row_products.h) with AVX2 + FMA + F16C.  Per super-block and row: the
// quants unpacked to unsigned bytes, a run of 32 values at a time, multiplied with the
// activation's int8 quants by vpmaddubsw (pairs to int16: at most 2·63·128, no saturation),
// the pairs multiplied by their sub-block's scale and summed into int32 lanes by vpmaddwd;
// the lanes scaled by d·d_x in float.  What the unsigned quants add is taken off through the
// activation's sums per 16 (bsums): the mins of Q2_K, Q4_K and Q5_K in float (dmin), the
// offsets of Q3_K (4) and Q6_K (32) exactly in int32.  Rows run in groups of four, the rows
// after them prefetched (kq::in_groups); eight, which suit the AVX-512 kernels, were no
// faster here (Zen 5, Q4_K, rows far beyond the caches, of a plain read, one thread / two:
// 0.72 / 0.81 with four, 0.70 / 0.70 with eight).
#include <immintrin.h>

#include <cstdint>
#include <type_traits>

#include "engine/kernels/row_products_kquants.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {

namespace {

using kq::u8;
using V = __m256i;

[[gnu::always_inline]] inline V load(const void* p) {
    return _mm256_loadu_si256(static_cast<const V*>(p));
}
[[gnu::always_inline]] inline V bytes(int v) {
    return _mm256_set1_epi8(static_cast<char>(v));
}

[[gnu::always_inline]] inline float f16_at(const u8* p) {
    std::uint16_t h;
    __builtin_memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

/// 16 words from `from` (the same 16 bytes in both 128-bit lanes): word `lo` of them in the
/// low lane, word `hi` in the high one: the scales of the two runs of 16 a vector holds.
[[gnu::always_inline]] inline V words(V from, int lo, int hi) {
    const auto pick = [](int w) { return static_cast<short>((2 * w + 1) << 8 | 2 * w); };
    return _mm256_shuffle_epi8(
        from, _mm256_setr_m128i(_mm_set1_epi16(pick(lo)), _mm_set1_epi16(pick(hi))));
}

/// 16 words: byte `lo` of `from` (as above), zero-extended, in the low lane, byte `hi` in the
/// high one.
[[gnu::always_inline]] inline V byte_words(V from, int lo, int hi) {
    const auto pick = [](int i) { return static_cast<short>(0xFF00 | i); };  // high byte zero
    return _mm256_shuffle_epi8(
        from, _mm256_setr_m128i(_mm_set1_epi16(pick(lo)), _mm_set1_epi16(pick(hi))));
}

/// The 32 quants (unsigned bytes) of a run times the activation's, each int16 pair times its
/// scale, added to the int32 lanes of acc.
[[gnu::always_inline]] inline V add_products(V acc, V quants, const std::int8_t* x, V scales) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(quants, load(x)), scales));
}

/// One block of the activation.
struct Activation {
    const std::int8_t* q;  ///< 256 int8
    V bsums;               ///< 16 int16
    V neg_bsums;           ///< -bsums
    V bsums32;             ///< kq::bsums_per_32, for Q4_K and Q5_K
    float d;
};

/// acc += d_x·d · the int32 lanes of sum.
[[gnu::always_inline]] inline void scale_into(__m256& acc, V sum, float dx, const u8* d) {
    acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sum), _mm256_set1_ps(dx * f16_at(d)), acc);
}

/// acc -= d_x·dmin · the int32 lanes of summ.
[[gnu::always_inline]] inline void take_mins(__m256& acc, V summ, float dx, const u8* dmin) {
    acc = _mm256_fnmadd_ps(_mm256_cvtepi32_ps(summ), _mm256_set1_ps(dx * f16_at(dmin)), acc);
}

/// The 16 signed scales (bytes) as words, lanes 0 .. 7 in both halves of the first vector,
/// 8 .. 15 in both of the second (for words()), and -2^Log2Offset · Σ sc·bsums (neg_bsums =
/// -bsums; sc·offset fits int16), the int32 start of a type whose quants are stored as
/// q + offset.
template <int Log2Offset>
[[gnu::always_inline]] inline V signed_scales(__m128i sc8, V neg_bsums, V halves[2]) {
    const V sc16 = _mm256_cvtepi8_epi16(sc8);
    halves[0] = _mm256_permute2x128_si256(sc16, sc16, 0x00);
    halves[1] = _mm256_permute2x128_si256(sc16, sc16, 0x11);
    return _mm256_madd_epi16(_mm256_slli_epi16(sc16, Log2Offset), neg_bsums);
}

// Each type's block() adds one super-block to a row's accumulator.  Run r holds values
// 32r .. 32r + 31.

/// Q2_K: run r is bits 2(r % 4) of qs[32(r / 4) + l]; scale and min (4 bits each) per 16.
struct Q2K {
    using L = kq::Q2K;
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m256& acc) {
        const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + L::scales));
        const __m128i low4 = _mm_set1_epi8(0x0F);
        const V scales = _mm256_broadcastsi128_si256(_mm_and_si128(packed, low4));
        V sum = _mm256_setzero_si256();
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const V qs = load(b + L::qs + 32 * h);
#pragma GCC unroll 4
            for (int s = 0; s < 4; ++s) {
                const int r = 4 * h + s;
                const V q = _mm256_and_si256(_mm256_srli_epi16(qs, 2 * s), bytes(3));
                sum = add_products(sum, q, x.q + 32 * r, byte_words(scales, 2 * r, 2 * r + 1));
            }
        }
        scale_into(acc, sum, x.d, b + L::d);
        const V m = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(packed, 4), low4));
        take_mins(acc, _mm256_madd_epi16(m, x.bsums), x.d, b + L::dmin);
    }
};

/// Q3_K: Q2_K's 2-bit quants plus 4 where bit r of hmask[l] is set, less 4; signed 6-bit
/// scales per 16.
struct Q3K {
    using L = kq::Q3K;
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m256& acc) {
        V scales[2];
        V sum = signed_scales<2>(kq::q3k_scales_signed(b + L::scales), x.neg_bsums, scales);
        const V hmask = load(b + L::hmask);
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const V qs = load(b + L::qs + 32 * h);
#pragma GCC unroll 4
            for (int s = 0; s < 4; ++s) {
                const int r = 4 * h + s;
                // Bit r of hmask to bit 2 (16-bit shifts: the bit stays in its byte).
                const V high =
                    r <= 2 ? _mm256_slli_epi16(hmask, 2 - r) : _mm256_srli_epi16(hmask, r - 2);
                const V q =
                    _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(qs, 2 * s), bytes(3)),
                                    _mm256_and_si256(high, bytes(4)));
                sum = add_products(sum, q, x.q + 32 * r,
                                   words(scales[r / 4], 2 * r % 8, 2 * r % 8 + 1));
            }
        }
        scale_into(acc, sum, x.d, b + L::d);
    }
};

/// Q4_K and Q5_K: runs 2j and 2j + 1 are the low and high nibbles of qs[32j + l]; 6-bit
/// scale and min per 32.  Q5_K adds bit r of qh[l] as 16.
template <bool Five>
struct QK45 {
    using L = std::conditional_t<Five, kq::Q5K, kq::Q4K>;
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m256& acc) {
        const __m128i sm = kq::q4k_scales_mins(b + L::scales);
        const V scales = _mm256_broadcastsi128_si256(sm);
        V sum = _mm256_setzero_si256();
        [[maybe_unused]] V qh;
        if constexpr (Five) qh = load(b + L::qh);
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) {
            const V qs = load(b + L::qs + 32 * j);
            V low = _mm256_and_si256(qs, bytes(0x0F));
            V high = _mm256_and_si256(_mm256_srli_epi16(qs, 4), bytes(0x0F));
            if constexpr (Five) {
                low = _mm256_or_si256(low, _mm256_and_si256(fifth_bit(qh, 2 * j), bytes(0x10)));
                high =
                    _mm256_or_si256(high, _mm256_and_si256(fifth_bit(qh, 2 * j + 1), bytes(0x10)));
            }
            sum = add_products(sum, low, x.q + 64 * j, byte_words(scales, 2 * j, 2 * j));
            sum = add_products(sum, high, x.q + 64 * j + 32,
                               byte_words(scales, 2 * j + 1, 2 * j + 1));
        }
        scale_into(acc, sum, x.d, b + L::d);
        take_mins(acc, _mm256_madd_epi16(_mm256_cvtepu8_epi16(sm), x.bsums32), x.d, b + L::dmin);
    }
    /// Bit r of qh at bit 4 (16-bit shifts: the bit stays in its byte).
    [[gnu::always_inline]] static V fifth_bit(V qh, int r) {
        return r <= 4 ? _mm256_slli_epi16(qh, 4 - r) : _mm256_srli_epi16(qh, r - 4);
    }
};

/// Q6_K: in half h, run k (0 .. 3) is nibble k / 2 of ql[64h + 32(k % 2) + l] with bits 2k of
/// qh[32h + l] on top; stored as q + 32; signed 8-bit scales per 16.
struct Q6K {
    using L = kq::Q6K;
    [[gnu::always_inline]] static void block(const u8* b, const Activation& x, __m256& acc) {
        V scales[2];
        V sum = signed_scales<5>(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + L::scales)),
                                 x.neg_bsums, scales);
#pragma GCC unroll 2
        for (int h = 0; h < 2; ++h) {
            const V qh = load(b + L::qh + 32 * h);
#pragma GCC unroll 4
            for (int k = 0; k < 4; ++k) {
                const V ql = load(b + L::ql + 64 * h + 32 * (k % 2));
                const V nibble = k < 2 ? _mm256_and_si256(ql, bytes(0x0F))
                                       : _mm256_and_si256(_mm256_srli_epi16(ql, 4), bytes(0x0F));
                // Bits 2k, 2k + 1 of qh to bits 4, 5.
                const V top = k == 0   ? _mm256_slli_epi16(qh, 4)
                              : k == 1 ? _mm256_slli_epi16(qh, 2)
                              : k == 2 ? qh
                                       : _mm256_srli_epi16(qh, 2);
                const V q = _mm256_or_si256(nibble, _mm256_and_si256(top, bytes(0x30)));
                const int r = 4 * h + k;
                sum = add_products(sum, q, x.q + 32 * r,
                                   words(scales[r / 4], 2 * r % 8, 2 * r % 8 + 1));
            }
        }
        scale_into(acc, sum, x.d, b + L::d);
    }
};

template <class T>
[[gnu::always_inline]] inline Activation activation(const RowInput& x, std::int64_t b) {
    Activation a;
    a.q = x.q256.data() + b * kq::kValues;
    a.bsums = load(x.bsums.data() + b * (kq::kValues / kq::kBsumValues));
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
    __m256 acc[R];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
        acc[r] = _mm256_setzero_ps();
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
    for (int r = 0; r < R; ++r) {
        const __m128 s4 =
            _mm_add_ps(_mm256_castps256_ps128(acc[r]), _mm256_extractf128_ps(acc[r], 1));
        const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
        sums[r] = _mm_cvtss_f32(_mm_add_ss(s2, _mm_movehdup_ps(s2)));
    }
}

template <class T>
void products(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
              std::int64_t n, const RowInput& x, float* y, bool accumulate) {
    kq::in_groups<4>(base, row_bytes, order, n, y, accumulate,
                     [&]<int R>(const u8* const* rows, const u8* const* ahead, float* sums) {
                         row_group<T, R>(rows, ahead, x, sums);
                     });
}

}  // namespace

void fill_row_products_kquants_avx2(RowProductTable& table) {
    table[static_cast<int>(RowFormat::Q2_K)] = products<Q2K>;
    table[static_cast<int>(RowFormat::Q3_K)] = products<Q3K>;
    table[static_cast<int>(RowFormat::Q4_K)] = products<QK45<false>>;
    table[static_cast<int>(RowFormat::Q5_K)] = products<QK45<true>>;
    table[static_cast<int>(RowFormat::Q6_K)] = products<Q6K>;
}

}  // namespace attnviz::kernels::detail
