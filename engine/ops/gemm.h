// The matrix product every engine product goes through (linear layers, Q·Kᵀ and P·V): checked
// shapes, then the fastest backend for this CPU (kernels/gemm.h: oneDNN, OpenBLAS or Eigen,
// chosen once at run time).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attnviz::ops {

/// C[m, n] = A[m, k] · B, or C += A · B with `accumulate`, on row-major float32 buffers.
/// B is [k, n], or with `b_transposed` a [n, k] buffer used transposed (an nn.Linear weight,
/// the keys of Q·Kᵀ).  lda, ldb, ldc are row strides in floats; 0 means the row length.
/// Runs on the calling thread; each output is the same float32 dot product run after run (see
/// kernels/gemm.h for the accuracy contract).  Throws std::invalid_argument, with the sizes,
/// for a negative size, a stride shorter than its row or a null buffer that has elements.
void gemm(const float* a, std::int64_t m, std::int64_t k, const float* b, std::int64_t n, float* c,
          bool b_transposed = false, std::int64_t lda = 0, std::int64_t ldb = 0,
          std::int64_t ldc = 0, bool accumulate = false);

/// The most heap one gemm call may allocate beyond the size of its operands, for memory
/// estimates (kernels::gemm_scratch_bytes of the chosen backend).
std::size_t gemm_scratch_bytes();

}  // namespace attnviz::ops
