#include "engine/ops/gemm.h"

#include <stdexcept>
#include <string>

#include "engine/kernels/gemm.h"

namespace attnviz::ops {

void gemm(const float* a, std::int64_t m, std::int64_t k, const float* b, std::int64_t n, float* c,
          bool b_transposed, std::int64_t lda, std::int64_t ldb, std::int64_t ldc,
          bool accumulate) {
    const auto shape = [&] {
        return "[" + std::to_string(m) + "," + std::to_string(k) + "] x " +
               (b_transposed ? "[" + std::to_string(n) + "," + std::to_string(k) + "]ᵀ"
                             : "[" + std::to_string(k) + "," + std::to_string(n) + "]");
    };
    if (m < 0 || n < 0 || k < 0) throw std::invalid_argument("gemm: negative size " + shape());
    const std::int64_t b_row = b_transposed ? k : n;
    if (lda == 0) lda = k;
    if (ldb == 0) ldb = b_row;
    if (ldc == 0) ldc = n;
    const auto stride = [&](const char* what, std::int64_t ld, std::int64_t row) {
        if (ld < row)
            throw std::invalid_argument(std::string("gemm: ") + what + " row stride " +
                                        std::to_string(ld) + " is shorter than its rows of " +
                                        std::to_string(row) + " in " + shape());
    };
    stride("A", lda, k);
    stride("B", ldb, b_row);
    stride("C", ldc, n);
    if (m == 0 || n == 0) return;  // nothing to write: no buffer is needed
    if (!c || (k > 0 && (!a || !b)))
        throw std::invalid_argument("gemm: a null buffer in " + shape());
    // One row (a generated token): a matrix-vector product, which Eigen does at the memory's
    // speed with no per-call set-up; the JIT backends' dispatch costs microseconds a call,
    // and a step of a small model makes dozens of calls.
    const kernels::GemmBackend backend =
        m == 1 ? kernels::GemmBackend::Eigen : kernels::gemm_backend();
    kernels::sgemm(backend, b_transposed, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

std::size_t gemm_scratch_bytes() {
    return kernels::gemm_scratch_bytes(kernels::gemm_backend());
}

}  // namespace attnviz::ops
