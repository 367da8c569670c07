// SIMD softmax kernels, written once (kernels/softmax_impl.h) and compiled for several
// instruction sets; the widest one the CPU supports is picked at run time.
//
// Contract of every softmax_row variant, for a row x[0..n) -> y[0..n) (y may equal x):
//  * y_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x)), computed in float32.
//  * Accuracy: each y_i is within 1e-6 relative (a few ULP) of the same formula evaluated
//    in double; the row sums to 1 within 1e-6.  exp is a degree-6 polynomial after
//    range reduction, accurate to 2 ULP on [-87.3, 0]; arguments below -87.3 give exactly 0.
//  * -inf entries give exactly 0.  Any finite input range is safe (the max is subtracted).
//  * A row whose every entry is -inf (fully masked), or n == 0: y is set to all zeros and
//    the function returns false, so the caller can apply its own policy.  Otherwise true.
//  * A NaN anywhere in the row, or a +inf, makes the whole row NaN (as PyTorch does).
#pragma once

#include <cstddef>
#include <vector>

namespace attnviz::kernels {

enum class Isa { Scalar, SSE2, AVX2, AVX512, NEON };

const char* isa_name(Isa isa);
/// Parses "scalar", "sse2", "avx2", "avx512", "neon"; throws std::invalid_argument otherwise.
Isa isa_from_name(const char* name);

/// The variants compiled into this binary that this CPU can run, narrowest first.
std::vector<Isa> available_isas();
/// The widest available variant (chosen once, at first use).
Isa best_isa();

/// Softmax of one row with the best variant.
bool softmax_row(const float* x, float* y, std::size_t n);
/// Softmax of one row with a given variant; throws std::invalid_argument if the variant is
/// not available.
bool softmax_row(Isa isa, const float* x, float* y, std::size_t n);

/// y_i = exp(x_i) with a given variant (same polynomial as softmax uses), for tests.
void exp_array(Isa isa, const float* x, float* y, std::size_t n);

/// The plain scalar loop (std::exp per element) — the reference the tests and the
/// benchmark compare against.  Same contract, computed in float with std::exp.
bool softmax_row_reference(const float* x, float* y, std::size_t n);

}  // namespace attnviz::kernels
