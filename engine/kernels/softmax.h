// SIMD softmax kernels, written once (kernels/softmax_impl.h) and compiled for several
// instruction sets; the widest one the CPU supports is picked at run time.
//
// Contract of every softmax_row variant, for a row x[0..n) -> y[0..n) (y may equal x):
//  * y_i = exp(x_i - max(x)) / sum_j exp(x_j - max(x)), computed in float32.
//  * Accuracy, against the same formula evaluated in double from the float inputs:
//      |y_i - ref_i| <= (1e-6 + |x_i - max(x)| * 2^-24) * ref_i + 2e-38.
//    The middle term is x_i - max(x) rounded to float, as in every float32 softmax (PyTorch's
//    too): below 1e-6 within 16 of the max, 5.2e-6 at most (at the -87.3 cutoff).  Measured
//    over random rows the rest stays below 3e-7.  The row sums to 1 within 1e-6.
//  * exp is a degree-6 polynomial after range reduction, within 2 ULP (0.88 measured) on
//    [-87.3, 88.7]; exp(x_i - max(x)) below exp(-87.3) is exactly 0 (the 2e-38 above).
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

/// softmax_row, the same y bit for bit, and the row's entropy H = -sum_i y_i ln y_i in nats
/// from the same exp pass: with e_i = exp(x_i - m) and S = sum_i e_i,
///     H = ln S - (sum_i e_i (x_i - m)) / S,
/// two terms >= 0, so nothing cancels.  Against -sum y_i ln y_i in double from the float y:
/// |H - ref| <= 1e-6 (1 + ref) (1.0e-7 measured, the float rounding of x_i - m as in y).  One
/// fused multiply-add per element more than softmax_row, instead of a logarithm per weight
/// afterwards.  A fully masked row (false): y all 0 and H = 0; a NaN row: H NaN.
bool softmax_entropy_row(const float* x, float* y, std::size_t n, double* entropy);
bool softmax_entropy_row(Isa isa, const float* x, float* y, std::size_t n, double* entropy);

/// y_i = exp(x_i) with a given variant (same polynomial as softmax uses), for tests: within
/// 2 ULP on [-87.3, 88.72], exactly 0 below -87.3 (and for -inf), +inf above, NaN for NaN.
void exp_array(Isa isa, const float* x, float* y, std::size_t n);

/// The plain scalar loop (std::exp per element) — the reference the tests and the
/// benchmark compare against.  Same contract, computed in float with std::exp (the sum in
/// double).
bool softmax_row_reference(const float* x, float* y, std::size_t n);

}  // namespace attnviz::kernels
