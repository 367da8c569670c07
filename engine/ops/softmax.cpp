#include "engine/ops/softmax.h"

#include <algorithm>
#include <atomic>
#include <limits>

#include "engine/kernels/softmax.h"
#include "engine/ops/parallel.h"

namespace attnviz::ops {

bool softmax_row(const float* x, float* y, std::size_t n) {
    return kernels::softmax_row(x, y, n);
}

std::size_t softmax_rows(float* data, std::size_t rows, std::size_t cols, MaskedRowPolicy policy,
                         std::uint8_t* fully_masked) {
    std::size_t masked = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        float* row = data + r * cols;
        const bool live = kernels::softmax_row(row, row, cols);
        if (fully_masked) fully_masked[r] = live ? 0 : 1;
        if (live) continue;
        ++masked;
        const float fill = policy == MaskedRowPolicy::Zero ? 0.0f
                           : policy == MaskedRowPolicy::Uniform
                               ? 1.0f / static_cast<float>(cols)
                               : std::numeric_limits<float>::quiet_NaN();
        std::fill(row, row + cols, fill);
    }
    return masked;
}

std::size_t softmax_rows(float* data, std::size_t rows, std::size_t cols, MaskedRowPolicy policy,
                         std::uint8_t* fully_masked, int threads) {
    std::atomic<std::size_t> masked{0};
    parallel_for(rows, threads, [&](std::size_t b, std::size_t e) {
        masked += softmax_rows(data + b * cols, e - b, cols, policy,
                               fully_masked ? fully_masked + b : nullptr);
    });
    return masked;
}

}  // namespace attnviz::ops
