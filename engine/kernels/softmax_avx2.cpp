// The softmax kernel instantiated for AVX2 + FMA (8 lanes; compiled with -mavx2 -mfma).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
#include <cstddef>

#include "engine/kernels/lanes_avx2.h"
#include "engine/kernels/softmax_impl.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels::detail {

bool softmax_row_avx2(const float* x, float* y, std::size_t n) {
    return softmax_row_impl<Avx2Lanes>(x, y, n);
}

bool softmax_sums_row_avx2(const float* x, float* y, std::size_t n, double* sum, double* weighted) {
    ExpTotals t;
    const bool live = softmax_row_impl<Avx2Lanes, true>(x, y, n, &t);
    *sum = t.sum;
    *weighted = t.weighted;
    return live;
}

void exp_array_avx2(const float* x, float* y, std::size_t n) {
    exp_array_impl<Avx2Lanes>(x, y, n);
}

}  // namespace attnviz::kernels::detail
