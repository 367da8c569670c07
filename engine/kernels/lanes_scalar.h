// Lane traits for plain C++ (one float per "vector"): the fallback every CPU can run and the
// template's reference instantiation.  See softmax_impl.h for what a lanes type provides.
// Like every lanes header it lives in an anonymous namespace: each translation unit that
// includes it gets its own copy, compiled with that unit's flags.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::kernels {
namespace {

#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
constexpr bool kScalarHasFma = true;
#else
constexpr bool kScalarHasFma = false;
#endif

struct ScalarLanes {
    using V = float;
    using M = bool;
    static constexpr std::size_t kWidth = 1;
    static constexpr bool kHasFma = kScalarHasFma;
    static constexpr std::size_t kRegisters = 16;  // vector registers the compiler can allocate

    static V load(const float* p) { return *p; }
    static void store(float* p, V v) { *p = v; }
    static void stream(float* p, V v) { *p = v; }
    static void stream_fence() {}
    static V set1(float f) { return f; }
    static V zero() { return 0.0f; }

    static V add(V a, V b) { return a + b; }
    static V sub(V a, V b) { return a - b; }
    static V mul(V a, V b) { return a * b; }
    static V max(V a, V b) { return b > a ? b : a; }
    // One instruction where the target has FMA; never the slow software fmaf where it has not.
    static V fma(V a, V b, V c) {
        if constexpr (kHasFma) {
            return __builtin_fmaf(a, b, c);
        } else {
            return a * b + c;
        }
    }

    // Bit-level integer operations on the float's representation.
    static V shl23_bits(V v) {
        return __builtin_bit_cast(float, __builtin_bit_cast(std::uint32_t, v) << 23);
    }
    static V add_bits(V a, V b) {
        return __builtin_bit_cast(
            float, __builtin_bit_cast(std::uint32_t, a) + __builtin_bit_cast(std::uint32_t, b));
    }

    static M less(V a, V b) { return a < b; }
    static M greater(V a, V b) { return a > b; }
    static V zero_where(M m, V v) { return m ? 0.0f : v; }
    static V select(M m, V if_true, V if_false) { return m ? if_true : if_false; }

    static M is_nan(V v) { return v != v; }

    static float reduce_add(V v) { return v; }
    static float reduce_max(V v) { return v; }
};

}  // namespace
}  // namespace attnviz::kernels
