// The softmax kernel instantiated for SSE2 (4 lanes; compiled with -msse2).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstddef>

#include "engine/kernels/lanes_sse2.h"
#include "engine/kernels/softmax_impl.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels::detail {

bool softmax_row_sse2(const float* x, float* y, std::size_t n) {
    return softmax_row_impl<Sse2Lanes>(x, y, n);
}

bool softmax_sums_row_sse2(const float* x, float* y, std::size_t n, double* sum, double* weighted) {
    ExpTotals t;
    const bool live = softmax_row_impl<Sse2Lanes, true>(x, y, n, &t);
    *sum = t.sum;
    *weighted = t.weighted;
    return live;
}

void exp_array_sse2(const float* x, float* y, std::size_t n) {
    exp_array_impl<Sse2Lanes>(x, y, n);
}

}  // namespace attnviz::kernels::detail
