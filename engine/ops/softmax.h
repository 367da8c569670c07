// Row softmax over a [rows, cols] buffer, with an explicit policy for rows whose every entry
// is -inf (fully masked).  Uses the SIMD kernel picked at run time (kernels/softmax.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz {

/// What a fully masked row becomes.  Zero: all 0.  Uniform: 1/cols each.  NaN: all NaN,
/// exactly as PyTorch's reference implementation (softmax of an all -inf row).
enum class MaskedRowPolicy { Zero, Uniform, NaN };

namespace ops {

/// In-place softmax of each row.  `fully_masked` (optional, `rows` entries) receives 1 for
/// rows that were fully masked.  Returns how many rows were fully masked.
std::size_t softmax_rows(float* data, std::size_t rows, std::size_t cols, MaskedRowPolicy policy,
                         std::uint8_t* fully_masked = nullptr);

/// softmax of one row `x` into `y` (n values each); false, with y all 0, when every entry of x
/// is -inf.
bool softmax_row(const float* x, float* y, std::size_t n);

/// The same, with the rows spread over `threads` threads.
std::size_t softmax_rows(float* data, std::size_t rows, std::size_t cols, MaskedRowPolicy policy,
                         std::uint8_t* fully_masked, int threads);

}  // namespace ops
}  // namespace attnviz
