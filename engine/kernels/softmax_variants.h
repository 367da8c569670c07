// Internal to engine/kernels: the per-ISA entry points behind softmax.h, one set per
// softmax_<isa>.cpp unit.  Declarations only (no inline code), so the units compiled with
// wider -m flags can include it without sharing any code with the rest of the program.
#pragma once

#include <cstddef>

namespace attnviz::kernels::detail {

// softmax_sums_row_<isa>: the softmax of softmax_row_<isa>, bit for bit, and its exp pass's sums
// S = sum_i exp(x_i - m) and T = sum_i exp(x_i - m) (x_i - m), from which the dispatcher
// (compiled with the baseline flags, as the logarithm must be) gives the entropy.

bool softmax_row_scalar(const float* x, float* y, std::size_t n);
bool softmax_sums_row_scalar(const float* x, float* y, std::size_t n, double* sum,
                             double* weighted);
void exp_array_scalar(const float* x, float* y, std::size_t n);

bool softmax_row_sse2(const float* x, float* y, std::size_t n);
bool softmax_sums_row_sse2(const float* x, float* y, std::size_t n, double* sum, double* weighted);
void exp_array_sse2(const float* x, float* y, std::size_t n);

bool softmax_row_avx2(const float* x, float* y, std::size_t n);
bool softmax_sums_row_avx2(const float* x, float* y, std::size_t n, double* sum, double* weighted);
void exp_array_avx2(const float* x, float* y, std::size_t n);

bool softmax_row_avx512(const float* x, float* y, std::size_t n);
bool softmax_sums_row_avx512(const float* x, float* y, std::size_t n, double* sum,
                             double* weighted);
void exp_array_avx512(const float* x, float* y, std::size_t n);

bool softmax_row_neon(const float* x, float* y, std::size_t n);
bool softmax_sums_row_neon(const float* x, float* y, std::size_t n, double* sum, double* weighted);
void exp_array_neon(const float* x, float* y, std::size_t n);

}  // namespace attnviz::kernels::detail
