// Lane traits for SSE2 (4 floats).  See softmax_impl.h for the contract of a lanes type.
// Only intrinsics (always inlined, no out-of-line copies), in an anonymous namespace.
#pragma once

#include <immintrin.h>

#include <cstddef>

namespace attnviz::kernels {
namespace {

struct Sse2Lanes {
    using V = __m128;
    using M = __m128;
    static constexpr std::size_t kWidth = 4;
    static constexpr bool kHasFma = false;
    static constexpr std::size_t kRegisters = 16;  // vector registers the compiler can allocate

    static V load(const float* p) { return _mm_loadu_ps(p); }
    static void store(float* p, V v) { _mm_storeu_ps(p, v); }
    // Non-temporal store to a 16-byte aligned address; stream_fence() orders them.
    static void stream(float* p, V v) { _mm_stream_ps(p, v); }
    static void stream_fence() { _mm_sfence(); }
    static V set1(float f) { return _mm_set1_ps(f); }
    static V zero() { return _mm_setzero_ps(); }

    static V add(V a, V b) { return _mm_add_ps(a, b); }
    static V sub(V a, V b) { return _mm_sub_ps(a, b); }
    static V mul(V a, V b) { return _mm_mul_ps(a, b); }
    static V max(V a, V b) { return _mm_max_ps(a, b); }
    static V fma(V a, V b, V c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }

    static V shl23_bits(V v) { return _mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(v), 23)); }
    static V add_bits(V a, V b) {
        return _mm_castsi128_ps(_mm_add_epi32(_mm_castps_si128(a), _mm_castps_si128(b)));
    }

    static M less(V a, V b) { return _mm_cmplt_ps(a, b); }
    static M greater(V a, V b) { return _mm_cmpgt_ps(a, b); }
    static V zero_where(M m, V v) { return _mm_andnot_ps(m, v); }
    static V select(M m, V if_true, V if_false) {
        return _mm_or_ps(_mm_and_ps(m, if_true), _mm_andnot_ps(m, if_false));
    }

    static M is_nan(V v) { return _mm_cmpunord_ps(v, v); }

    static float reduce_add(V v) {
        const V pairs = _mm_add_ps(v, _mm_movehl_ps(v, v));
        return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)));
    }
    static float reduce_max(V v) {
        const V pairs = _mm_max_ps(v, _mm_movehl_ps(v, v));
        return _mm_cvtss_f32(_mm_max_ss(pairs, _mm_shuffle_ps(pairs, pairs, 1)));
    }
};

}  // namespace
}  // namespace attnviz::kernels
