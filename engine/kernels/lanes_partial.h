// A partial vector (the first `count` < kWidth lanes) for the kernels written over a lanes type
// (softmax_impl.h, attention_impl.h): the lanes type's masked load and store where it has them
// (AVX-512), otherwise through a small padded buffer.  Same rules as those headers: included
// only by per-ISA units, after their lanes header; anonymous namespace.
#pragma once

#include <cstddef>

namespace attnviz::kernels {
namespace {

template <class L>
typename L::V load_partial(const float* p, std::size_t count, float fill) {
    if constexpr (requires { L::load_masked(p, count, fill); }) {
        return L::load_masked(p, count, fill);
    } else {
        alignas(64) float buf[L::kWidth];
        for (std::size_t i = 0; i < L::kWidth; ++i)
            buf[i] = i < count ? p[i] : fill;
        return L::load(buf);
    }
}

template <class L>
void store_partial(float* p, std::size_t count, typename L::V v) {
    if constexpr (requires { L::store_masked(p, count, v); }) {
        L::store_masked(p, count, v);
    } else {
        alignas(64) float buf[L::kWidth];
        L::store(buf, v);
        // Bounded by the width, not by count alone: GCC's range analysis cannot always see
        // that count < kWidth and would warn of an overflow of buf.
        for (std::size_t i = 0; i < L::kWidth && i < count; ++i)
            p[i] = buf[i];
    }
}

}  // namespace
}  // namespace attnviz::kernels
