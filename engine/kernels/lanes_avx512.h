// Lane traits for AVX-512F (16 floats).  See softmax_impl.h for the contract of a lanes type.
// Only intrinsics (always inlined, no out-of-line copies), in an anonymous namespace.
// Compares give a k-mask, and the row tail uses masked loads and stores instead of the
// generic padded buffer.
#pragma once

#include <immintrin.h>

#include <cstddef>

namespace attnviz::kernels {
namespace {

struct Avx512Lanes {
    using V = __m512;
    using M = __mmask16;
    static constexpr std::size_t kWidth = 16;
    static constexpr bool kHasFma = true;
    static constexpr std::size_t kRegisters = 32;  // vector registers the compiler can allocate

    static V load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
    // Non-temporal store to a 64-byte aligned address; stream_fence() orders them.
    static void stream(float* p, V v) { _mm512_stream_ps(p, v); }
    static void stream_fence() { _mm_sfence(); }
    static V set1(float f) { return _mm512_set1_ps(f); }
    static V zero() { return _mm512_setzero_ps(); }

    // The first `count` (< 16) lanes; masked-off lanes are neither read nor written, so
    // they cannot fault past the end of the row.
    static __mmask16 first_lanes(std::size_t count) {
        return static_cast<__mmask16>((1u << count) - 1u);
    }
    static V load_masked(const float* p, std::size_t count, float fill) {
        return _mm512_mask_loadu_ps(_mm512_set1_ps(fill), first_lanes(count), p);
    }
    static void store_masked(float* p, std::size_t count, V v) {
        _mm512_mask_storeu_ps(p, first_lanes(count), v);
    }

    static V add(V a, V b) { return _mm512_add_ps(a, b); }
    static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
    static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
    static V max(V a, V b) { return _mm512_max_ps(a, b); }
    static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }

    static V shl23_bits(V v) {
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_castps_si512(v), 23));
    }
    static V add_bits(V a, V b) {
        return _mm512_castsi512_ps(
            _mm512_add_epi32(_mm512_castps_si512(a), _mm512_castps_si512(b)));
    }

    static M less(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
    static M greater(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
    static V zero_where(M m, V v) { return _mm512_mask_mov_ps(v, m, _mm512_setzero_ps()); }
    static V select(M m, V if_true, V if_false) {
        return _mm512_mask_blend_ps(m, if_false, if_true);
    }

    // e * 2^n for an integral n, or 0 where `zero` is set: the exp's last steps in one
    // instruction instead of a shift, a multiply and a blend (softmax_impl.h's exp_batch).
    static V scale_by_pow2_or_zero(M zero, V e, V n) {
        return _mm512_maskz_scalef_ps(static_cast<__mmask16>(~zero), e, n);
    }

    static M is_nan(V v) { return _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q); }

    static float reduce_add(V v) { return _mm512_reduce_add_ps(v); }
    static float reduce_max(V v) { return _mm512_reduce_max_ps(v); }
};

}  // namespace
}  // namespace attnviz::kernels
