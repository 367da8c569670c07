// Multi-row products (row_products.h, row_products_rows) for AVX-512 (F, DQ) + F16C: tiles of
// 24 zmm accumulators, 3 activation rows × 8 weight rows widened in registers, or 4 × 6 widened
// once into L1 (row_products_tiles.h).
// GCC 12's AVX-512 intrinsics fill unused lanes from _mm512_undefined_*(), which
// -W(maybe-)uninitialized reports once inlined (GCC PR 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/kernels/row_products_tiles.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {
namespace {

struct Avx512Tiles {
    using V = __m512;
    static constexpr std::int64_t kWidth = 16;
    static V zero() { return _mm512_setzero_ps(); }
    static V load(const float* p) { return _mm512_load_ps(p); }
    static void store(float* p, V v) { _mm512_store_ps(p, v); }
    static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }

    /// Lane a = Σ acc[a]: pairs of accumulators halved together, then groups of four within
    /// 128-bit lanes (a 4×4 transpose-add).  Every accumulator goes through the same tree,
    /// (s0 + s2) + (s1 + s3) with s_l = (a_l + a_l+8) + (a_l+4 + a_l+12), so its sum does not
    /// depend on its slot; the slots are paired so that the sums come out in order.
    static V reduce(const V* acc) {
        V t[4];
        for (int q = 0; q < 4; ++q) {
            // Halves: s[p] = [a.lo + a.hi | b.lo + b.hi].
            V s[2];
            for (int p = 0; p < 2; ++p) {
                const V a = acc[q + 8 * p], b = acc[q + 8 * p + 4];
                s[p] = _mm512_add_ps(_mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(1, 0, 1, 0)),
                                     _mm512_shuffle_f32x4(a, b, _MM_SHUFFLE(3, 2, 3, 2)));
            }
            // 128-bit lane r of t[q]: the four partial sums of acc[4r + q].
            t[q] = _mm512_add_ps(_mm512_shuffle_f32x4(s[0], s[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                 _mm512_shuffle_f32x4(s[0], s[1], _MM_SHUFFLE(3, 1, 3, 1)));
        }
        const V v01 = _mm512_add_ps(_mm512_unpacklo_ps(t[0], t[1]), _mm512_unpackhi_ps(t[0], t[1]));
        const V v23 = _mm512_add_ps(_mm512_unpacklo_ps(t[2], t[3]), _mm512_unpackhi_ps(t[2], t[3]));
        return _mm512_add_ps(_mm512_shuffle_ps(v01, v23, _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm512_shuffle_ps(v01, v23, _MM_SHUFFLE(3, 2, 3, 2)));
    }

    static void split_even_odd(const float* p, float* out) {
        const __m512i even =
            _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
        const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
        const V x0 = _mm512_loadu_ps(p), x1 = _mm512_loadu_ps(p + 16);
        _mm512_store_ps(out, _mm512_permutex2var_ps(x0, even, x1));
        _mm512_store_ps(out + 16, _mm512_permutex2var_ps(x0, odd, x1));
    }

    // Each block of 32 weights as two float32 vectors, exactly.  BF16 by shifts and masks of
    // its 32-bit lanes (even values, odd values), not vdpbf16ps, which would round the
    // activation to bfloat16 too.
    struct F32 {
        static constexpr std::size_t kBytes = 4;
        static constexpr bool kEvenOdd = false;
        static V lo(const TileByte* p) { return _mm512_loadu_ps(p); }
        static V hi(const TileByte* p) { return _mm512_loadu_ps(p + 64); }
    };
    struct F16 {
        static constexpr std::size_t kBytes = 2;
        static constexpr bool kEvenOdd = false;
        static V lo(const TileByte* p) {
            return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
        }
        static V hi(const TileByte* p) {
            return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)));
        }
    };
    struct BF16 {
        static constexpr std::size_t kBytes = 2;
        static constexpr bool kEvenOdd = true;
        static V lo(const TileByte* p) {
            return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_loadu_si512(p), 16));
        }
        static V hi(const TileByte* p) {
            return _mm512_castsi512_ps(
                _mm512_and_si512(_mm512_loadu_si512(p), _mm512_set1_epi32(~0xFFFF)));
        }
    };
};

}  // namespace

void fill_row_products_rows_avx512(RowsProductTable& table, RowsTiles tiles) {
    // Registers: 24 accumulators, 3 activation vectors, a weight vector and BF16's mask, 29
    // of 32 registers.  On Zen 5 (8B shapes, 96 rows, one thread) 3 × 8 ran at ~180 GFLOP per
    // CPU-second, 4 × 6 at ~155, 4 × 5 ~163, 3 × 7 ~176, 2 × 12 ~142, 3 × 9 (spilling) ~126.
    // Widened: on an Intel Xeon (AVX-512, 2 cores) 4 × 6 ran at ~130 where 3 × 8 in registers
    // ran at ~110 (its sgemm peak ~162): 24 KB of widened weights beside the activation's
    // stream in a 48 KB L1; 3 × 8 widened (32 KB) ~101, 8 × 3 ~123, 6 × 4 ~125, 5 × 5 ~124.
    if (tiles == RowsTiles::Widened)
        fill_tiles<Avx512Tiles, TileShape<4, 6, true>>(table);
    else
        fill_tiles<Avx512Tiles, TileShape<3, 8, false>>(table);
}

}  // namespace attnviz::kernels::detail
