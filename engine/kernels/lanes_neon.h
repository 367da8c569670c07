// Lane traits for AArch64 Advanced SIMD (4 floats).  See softmax_impl.h for the contract of a
// lanes type.  Only intrinsics, in an anonymous namespace.  AArch64 only: it needs
// vcvtnq_s32_f32 (round to nearest) and the across-vector vaddvq/vmaxvq reductions.
#pragma once

#include <arm_neon.h>

#include <cstddef>

namespace attnviz::kernels {
namespace {

struct NeonLanes {
    using V = float32x4_t;
    using M = uint32x4_t;
    static constexpr std::size_t kWidth = 4;
    static constexpr bool kHasFma = true;
    static constexpr std::size_t kRegisters = 32;  // vector registers the compiler can allocate

    static V load(const float* p) { return vld1q_f32(p); }
    static void store(float* p, V v) { vst1q_f32(p, v); }
    // No portable non-temporal store: an ordinary one.
    static void stream(float* p, V v) { vst1q_f32(p, v); }
    static void stream_fence() {}
    static V set1(float f) { return vdupq_n_f32(f); }
    static V zero() { return vdupq_n_f32(0.0f); }

    static V add(V a, V b) { return vaddq_f32(a, b); }
    static V sub(V a, V b) { return vsubq_f32(a, b); }
    static V mul(V a, V b) { return vmulq_f32(a, b); }
    static V max(V a, V b) { return vmaxq_f32(a, b); }
    static V fma(V a, V b, V c) { return vfmaq_f32(c, a, b); }

    static V shl23_bits(V v) {
        return vreinterpretq_f32_s32(vshlq_n_s32(vreinterpretq_s32_f32(v), 23));
    }
    static V add_bits(V a, V b) {
        return vreinterpretq_f32_s32(vaddq_s32(vreinterpretq_s32_f32(a), vreinterpretq_s32_f32(b)));
    }

    static M less(V a, V b) { return vcltq_f32(a, b); }
    static M greater(V a, V b) { return vcgtq_f32(a, b); }
    static V zero_where(M m, V v) {
        return vreinterpretq_f32_u32(vbicq_u32(vreinterpretq_u32_f32(v), m));
    }
    static V select(M m, V if_true, V if_false) { return vbslq_f32(m, if_true, if_false); }

    static M is_nan(V v) { return vmvnq_u32(vceqq_f32(v, v)); }

    static float reduce_add(V v) { return vaddvq_f32(v); }
    static float reduce_max(V v) { return vmaxvq_f32(v); }
};

}  // namespace
}  // namespace attnviz::kernels
