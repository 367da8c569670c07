// Internal to engine/kernels: the per-ISA entry points behind softmax.h, one set per
// softmax_<isa>.cpp unit.  Declarations only (no inline code), so the units compiled with
// wider -m flags can include it without sharing any code with the rest of the program.
#pragma once

#include <cstddef>

namespace attnviz::kernels::detail {

bool softmax_row_scalar(const float* x, float* y, std::size_t n);
void exp_array_scalar(const float* x, float* y, std::size_t n);

bool softmax_row_sse2(const float* x, float* y, std::size_t n);
void exp_array_sse2(const float* x, float* y, std::size_t n);

bool softmax_row_avx2(const float* x, float* y, std::size_t n);
void exp_array_avx2(const float* x, float* y, std::size_t n);

bool softmax_row_avx512(const float* x, float* y, std::size_t n);
void exp_array_avx512(const float* x, float* y, std::size_t n);

bool softmax_row_neon(const float* x, float* y, std::size_t n);
void exp_array_neon(const float* x, float* y, std::size_t n);

}  // namespace attnviz::kernels::detail
