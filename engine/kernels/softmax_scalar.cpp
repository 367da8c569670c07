// The softmax kernel instantiated for plain C++ (one lane), which every CPU can run, and the
// std::exp reference loop the tests and the benchmark measure the SIMD variants against.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include "engine/kernels/lanes_scalar.h"
#include "engine/kernels/softmax.h"
#include "engine/kernels/softmax_impl.h"
#include "engine/kernels/softmax_variants.h"

namespace attnviz::kernels {

namespace detail {

bool softmax_row_scalar(const float* x, float* y, std::size_t n) {
    return softmax_row_impl<ScalarLanes>(x, y, n);
}

bool softmax_sums_row_scalar(const float* x, float* y, std::size_t n, double* sum,
                             double* weighted) {
    ExpTotals t;
    const bool live = softmax_row_impl<ScalarLanes, true>(x, y, n, &t);
    *sum = t.sum;
    *weighted = t.weighted;
    return live;
}

void exp_array_scalar(const float* x, float* y, std::size_t n) {
    exp_array_impl<ScalarLanes>(x, y, n);
}

}  // namespace detail

bool softmax_row_reference(const float* x, float* y, std::size_t n) {
    constexpr float inf = std::numeric_limits<float>::infinity();
    if (n == 0) return false;
    float m = -inf;
    bool nan = false;
    for (std::size_t i = 0; i < n; ++i) {
        nan |= std::isnan(x[i]);
        m = std::max(m, x[i]);
    }
    if (nan || m == inf) {
        std::fill(y, y + n, std::numeric_limits<float>::quiet_NaN());
        return true;
    }
    if (m == -inf) {
        std::fill(y, y + n, 0.0f);
        return false;
    }
    // The sum is kept in double so that long rows still sum to 1 within 1e-6; it costs
    // nothing next to std::exp.
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = std::exp(x[i] - m);
        sum += y[i];
    }
    const float inv = static_cast<float>(1.0 / sum);
    for (std::size_t i = 0; i < n; ++i)
        y[i] *= inv;
    return true;
}

}  // namespace attnviz::kernels
