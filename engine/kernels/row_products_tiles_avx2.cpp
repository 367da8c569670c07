// Multi-row products (row_products.h, row_products_rows) for AVX2 + FMA + F16C: tiles of
// 3 activation rows × 4 weight rows, 12 ymm accumulators, the weights widened in registers or
// once into L1 (row_products_tiles.h).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "engine/kernels/row_products_tiles.h"
#include "engine/kernels/row_products_variants.h"

namespace attnviz::kernels::detail {
namespace {

struct Avx2Tiles {
    using V = __m256;
    static constexpr std::int64_t kWidth = 8;
    static V zero() { return _mm256_setzero_ps(); }
    static V load(const float* p) { return _mm256_load_ps(p); }
    static void store(float* p, V v) { _mm256_store_ps(p, v); }
    static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }

    /// Lane a = Σ acc[a]: pairs of accumulators halved together, then a 4×4 transpose-add
    /// within 128-bit lanes.  Every accumulator goes through the same tree,
    /// (s0 + s2) + (s1 + s3) with s_l = a_l + a_l+4; the slots are paired so that the sums
    /// come out in order.
    static V reduce(const V* acc) {
        V s[4];
        for (int p = 0; p < 4; ++p) {
            // 128-bit lane r of s[p]: the four partial sums of acc[4r + p].
            const V a = acc[p], b = acc[p + 4];
            s[p] = _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20),
                                 _mm256_permute2f128_ps(a, b, 0x31));
        }
        const V v01 = _mm256_add_ps(_mm256_unpacklo_ps(s[0], s[1]), _mm256_unpackhi_ps(s[0], s[1]));
        const V v23 = _mm256_add_ps(_mm256_unpacklo_ps(s[2], s[3]), _mm256_unpackhi_ps(s[2], s[3]));
        return _mm256_add_ps(_mm256_shuffle_ps(v01, v23, _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm256_shuffle_ps(v01, v23, _MM_SHUFFLE(3, 2, 3, 2)));
    }

    static void split_even_odd(const float* p, float* out) {
        const V x0 = _mm256_loadu_ps(p), x1 = _mm256_loadu_ps(p + 8);
        // Per 128-bit lane [x0 even, x1 even], then the 64-bit quarters put in order.
        const __m256d even = _mm256_castps_pd(_mm256_shuffle_ps(x0, x1, _MM_SHUFFLE(2, 0, 2, 0)));
        const __m256d odd = _mm256_castps_pd(_mm256_shuffle_ps(x0, x1, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm256_store_ps(out,
                        _mm256_castpd_ps(_mm256_permute4x64_pd(even, _MM_SHUFFLE(3, 1, 2, 0))));
        _mm256_store_ps(out + 8,
                        _mm256_castpd_ps(_mm256_permute4x64_pd(odd, _MM_SHUFFLE(3, 1, 2, 0))));
    }

    // Each block of 16 weights as two float32 vectors, exactly (BF16: even and odd values by
    // a shift and a mask; see row_products_tiles_avx512.cpp).
    struct F32 {
        static constexpr std::size_t kBytes = 4;
        static constexpr bool kEvenOdd = false;
        static V lo(const TileByte* p) {
            return _mm256_loadu_ps(reinterpret_cast<const float*>(p));
        }
        static V hi(const TileByte* p) {
            return _mm256_loadu_ps(reinterpret_cast<const float*>(p + 32));
        }
    };
    struct F16 {
        static constexpr std::size_t kBytes = 2;
        static constexpr bool kEvenOdd = false;
        static V lo(const TileByte* p) {
            return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
        }
        static V hi(const TileByte* p) {
            return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)));
        }
    };
    struct BF16 {
        static constexpr std::size_t kBytes = 2;
        static constexpr bool kEvenOdd = true;
        static __m256i raw(const TileByte* p) {
            return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
        }
        static V lo(const TileByte* p) {
            return _mm256_castsi256_ps(_mm256_slli_epi32(raw(p), 16));
        }
        static V hi(const TileByte* p) {
            return _mm256_castsi256_ps(_mm256_and_si256(raw(p), _mm256_set1_epi32(~0xFFFF)));
        }
    };
};

}  // namespace

void fill_row_products_rows_avx2(RowsProductTable& table, RowsTiles tiles) {
    // Registers: 12 accumulators, 3 activation vectors and a weight vector, the 16 registers
    // (BF16's mask is read from memory).  On Zen 5 2 × 6 ran alike (~90 GFLOP per CPU-second
    // on 8B shapes), 2 × 5 ~5% slower.
    // Widened: on an Intel Xeon (forced to AVX2) 3 × 4 ran at ~70 where it ran at ~66 in
    // registers (1-thread sgemm peak ~81); 4 × 3 ~70, 2 × 6 ~65, 3 × 3 ~64, 2 × 5 ~63.
    if (tiles == RowsTiles::Widened)
        fill_tiles<Avx2Tiles, TileShape<3, 4, true>>(table);
    else
        fill_tiles<Avx2Tiles, TileShape<3, 4, false>>(table);
}

}  // namespace attnviz::kernels::detail
