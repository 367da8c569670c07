// Lane traits for AVX2 + FMA (8 floats).  See softmax_impl.h for the contract of a lanes type.
// Only intrinsics (always inlined, no out-of-line copies), in an anonymous namespace.
#pragma once

#include <immintrin.h>

#include <cstddef>

namespace attnviz::kernels {
namespace {

struct Avx2Lanes {
    using V = __m256;
    using M = __m256;
    static constexpr std::size_t kWidth = 8;
    static constexpr bool kHasFma = true;
    static constexpr std::size_t kRegisters = 16;  // vector registers the compiler can allocate

    static V load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
    // Non-temporal store to a 32-byte aligned address; stream_fence() orders them.
    static void stream(float* p, V v) { _mm256_stream_ps(p, v); }
    static void stream_fence() { _mm_sfence(); }
    static V set1(float f) { return _mm256_set1_ps(f); }
    static V zero() { return _mm256_setzero_ps(); }

    static V add(V a, V b) { return _mm256_add_ps(a, b); }
    static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
    static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
    static V max(V a, V b) { return _mm256_max_ps(a, b); }
    static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }

    static V shl23_bits(V v) {
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(v), 23));
    }
    static V add_bits(V a, V b) {
        return _mm256_castsi256_ps(
            _mm256_add_epi32(_mm256_castps_si256(a), _mm256_castps_si256(b)));
    }

    static M less(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
    static M greater(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
    static V zero_where(M m, V v) { return _mm256_andnot_ps(m, v); }
    static V select(M m, V if_true, V if_false) { return _mm256_blendv_ps(if_false, if_true, m); }

    static M is_nan(V v) { return _mm256_cmp_ps(v, v, _CMP_UNORD_Q); }

    static float reduce_add(V v) {
        __m128 q = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        q = _mm_add_ps(q, _mm_movehl_ps(q, q));
        return _mm_cvtss_f32(_mm_add_ss(q, _mm_movehdup_ps(q)));
    }
    static float reduce_max(V v) {
        __m128 q = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        q = _mm_max_ps(q, _mm_movehl_ps(q, q));
        return _mm_cvtss_f32(_mm_max_ss(q, _mm_movehdup_ps(q)));
    }
};

}  // namespace
}  // namespace attnviz::kernels
