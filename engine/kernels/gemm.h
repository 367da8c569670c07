// Single-precision matrix products on row-major buffers, executed by one of the libraries this
// build has (GemmBackend), the fastest one for this CPU chosen once when the program starts
// (kernels/gemm.cpp explains the choice and its measured figures; bench/gemm_bench measures
// it again).  ops::gemm (ops/gemm.h) is the checked entry point the rest of the engine uses.
//
// Contract of sgemm, every backend:
//  * C[m, n] = A[m, k] · B (or C += A · B with `accumulate`), B being [k, n] or, with
//    `b_transposed`, the transpose of a [n, k] buffer (a weight as nn.Linear stores it, or the
//    keys in Q·Kᵀ).  lda, ldb, ldc are row strides in floats, at least the row length.
//  * float32 products accumulated in float32 (FMA), as PyTorch's CPU matmul: against a float64
//    loop on the same inputs the error is a few ULP of sum_k |a_ik · b_kj|.
//  * One thread: the library runs on its caller.  The engine spreads work itself
//    (ops/parallel.h), and calls from several threads at once are safe.
//  * The same call on the same inputs gives the same bits, run after run.
//  * m, n or k of 0 is allowed (with k = 0, C is zeroed or left as it is).  NaN and inf
//    propagate as in IEEE arithmetic, except that a zero `accumulate == false` output never
//    reads C (so garbage in C is not propagated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::kernels {

enum class GemmBackend {
    Eigen,     ///< Eigen's own kernels, compiled with the build's flags (SSE2 when portable)
    OpenBlas,  ///< OpenBLAS's cblas_sgemm, its kernels picked by the library at run time
    OneDnn,    ///< oneDNN's dnnl_sgemm, JIT-compiled for the widest instruction set at run time
};

/// "eigen", "openblas", "onednn".
const char* gemm_backend_name(GemmBackend backend);
/// The library and what it runs: "Eigen AVX512, FMA, ...", "OpenBLAS Cooperlake", "oneDNN 2.6.3".
std::string gemm_backend_description(GemmBackend backend);
/// Parses gemm_backend_name's names; throws std::invalid_argument listing them otherwise.
GemmBackend gemm_backend_from_name(const std::string& name);

/// The backends compiled into this binary, the chosen one first.
std::vector<GemmBackend> gemm_backends();
/// The backend ops::gemm uses: ATTNVIZ_GEMM=<name> when set (and compiled in), otherwise the
/// fastest one measured for this CPU's instruction set.  Chosen once.
GemmBackend gemm_backend();

/// The most heap one call may allocate beyond the size of its operands (memory estimates
/// count packed copies as the operands' size): oneDNN allocates a workspace of at least 74 KiB
/// per call, measured up to 231 KiB above the operands at the engine's shapes, so 256 KiB;
/// OpenBLAS packs into buffers it allocated when it started, Eigen within the operands' size.
std::size_t gemm_scratch_bytes(GemmBackend backend);

/// C = A · B (see the contract above) with a given backend; throws std::invalid_argument if it
/// is not compiled in.  No shape checks: ops::gemm checks them.
void sgemm(GemmBackend backend, bool b_transposed, std::int64_t m, std::int64_t n, std::int64_t k,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
           std::int64_t ldc, bool accumulate);

namespace detail {
/// oneDNN runs on one thread when called from the calling thread (each thread's first call
/// sets it); every oneDNN entry point of the engine calls this first.  A no-op without oneDNN.
void onednn_one_thread();
}  // namespace detail

}  // namespace attnviz::kernels
