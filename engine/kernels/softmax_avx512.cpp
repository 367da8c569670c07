// The softmax kernel instantiated for AVX-512F (16 lanes, masked tails; compiled with -mavx512f).
// This unit includes only intrinsics and the kernel templates (anonymous namespace); see
// softmax_impl.h for why nothing else may be shared with units built for other ISAs.
// GCC 12's AVX-512 intrinsics fill unused lanes from _mm512_undefined_*(), written as
// `__m512 __Y = __Y;`, which -W(maybe-)uninitialized reports once inlined (GCC PR 105593,
// fixed in GCC 13).  Silenced for this unit only; it must precede the first <immintrin.h>.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <cstddef>

#include "engine/kernels/lanes_avx512.h"
#include "engine/kernels/softmax_impl.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels::detail {

bool softmax_row_avx512(const float* x, float* y, std::size_t n) {
    return softmax_row_impl<Avx512Lanes>(x, y, n);
}

bool softmax_sums_row_avx512(const float* x, float* y, std::size_t n, double* sum,
                             double* weighted) {
    ExpTotals t;
    const bool live = softmax_row_impl<Avx512Lanes, true>(x, y, n, &t);
    *sum = t.sum;
    *weighted = t.weighted;
    return live;
}

void exp_array_avx512(const float* x, float* y, std::size_t n) {
    exp_array_impl<Avx512Lanes>(x, y, n);
}

}  // namespace attnviz::kernels::detail
