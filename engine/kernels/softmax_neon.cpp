// The softmax kernel instantiated for AArch64 Advanced SIMD (4 lanes; compiled on aarch64 only).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstddef>

#include "engine/kernels/lanes_neon.h"
#include "engine/kernels/softmax_impl.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels::detail {

bool softmax_row_neon(const float* x, float* y, std::size_t n) {
    return softmax_row_impl<NeonLanes>(x, y, n);
}

bool softmax_sums_row_neon(const float* x, float* y, std::size_t n, double* sum, double* weighted) {
    ExpTotals t;
    const bool live = softmax_row_impl<NeonLanes, true>(x, y, n, &t);
    *sum = t.sum;
    *weighted = t.weighted;
    return live;
}

void exp_array_neon(const float* x, float* y, std::size_t n) {
    exp_array_impl<NeonLanes>(x, y, n);
}

}  // namespace attnviz::kernels::detail
