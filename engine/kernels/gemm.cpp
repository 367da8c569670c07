// The GEMM backends and the run-time choice between them (see kernels/gemm.h).
//
// The choice on x86: oneDNN when it is compiled in, then OpenBLAS, then Eigen (elsewhere oneDNN
// comes last, see kCompiled); ATTNVIZ_GEMM=<name> overrides it.  Measured with bench/gemm_bench
// (one thread, GFLOP/s, medians of interleaved rounds; AMD EPYC Zen 5, Debian 12, November 2026):
//
//   shape [m x k] * [k x n]    oneDNN 2.6  OpenBLAS 0.3.21     Eigen 3.4        BLIS 0.9
//                                          SkylakeX  Haswell   native  SSE2
//   512x768 * 768x2304            181        179       93       124     38        32
//   512x3072 * 3072x768           181        180       99       129     38        33
//   QK^T 512x64 * 64x512          186        174       98       130     38        32
//   PV 512x512 * 512x64           171        169       93       132     37        32
//   QK^T 2048x64 * 64x2048        197        155       89       109     36        32
//   128x256 * 256x768             188        168       97       129     38        33
//   1x768 * 768x768                39         43        6        42     30         4
//
// Limited to AVX2 (DNNL_MAX_CPU_ISA=AVX2, Eigen built with -march=haswell), the AVX2-only
// machine case: oneDNN 95-102, OpenBLAS Haswell 88-97, Eigen 88-99 (and 36 / 6 / 36 for one
// row).  So oneDNN is the fastest or within noise of it on every shape, with AVX-512 or
// without, and it dispatches at run time: the portable build (SSE2 baseline, where Eigen's
// kernels reach 38) runs the same AVX-512 code as the native one.  It also needs no help to
// find its kernels: Debian's OpenBLAS 0.3.21 picks its SkylakeX-class Cooperlake kernels on
// Zen 5 by itself, but runs its AVX2 ones (half the speed) whenever OPENBLAS_CORETYPE says so,
// and its one-row products are 6x slower with them.  OpenBLAS stays the second choice (built
// without oneDNN), Eigen the last.  BLIS 0.9 does not know Zen 5 and runs its generic kernels.
#include "engine/kernels/gemm.h"

// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's GEMM
// kernel is inlined here (the intrinsics' undefined "source" operand): a false positive that
// would fail -Werror builds on AVX-512 machines (as in ops/nn.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <Eigen/Core>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#ifdef ATTNVIZ_WITH_ONEDNN
#include <dlfcn.h>
#include <oneapi/dnnl/dnnl.h>
#endif

#ifdef ATTNVIZ_WITH_OPENBLAS
extern "C" {
// cblas.h's declaration with its enums as ints (same ABI), so the engine needs no OpenBLAS
// include path: CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112.
void cblas_sgemm(int order, int trans_a, int trans_b, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void openblas_set_num_threads(int threads);
char* openblas_get_corename();
}
#endif

namespace attnviz::kernels {

namespace detail {

// Debian's oneDNN runs on OpenMP and would start a team of as many threads as cores inside
// every call, from each of the engine's threads.  OpenMP's thread count is per calling thread
// for threads OpenMP did not start, so each thread sets it to one before its first product.
// Looked up at run time rather than linked: it is whatever OpenMP runtime oneDNN was built
// with (libgomp on Debian), and a oneDNN built on TBB or sequentially has none to set.
void onednn_one_thread() {
#ifdef ATTNVIZ_WITH_ONEDNN
    thread_local const bool done = [] {
        using SetThreads = void (*)(int);
        if (auto* set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads")))
            set(1);
        return true;
    }();
    (void)done;
#endif
}

}  // namespace detail

namespace {

void sgemm_eigen(bool b_transposed, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                 std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                 bool accumulate) {
    using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Stride = Eigen::OuterStride<>;
    using ConstMap = Eigen::Map<const RowMat, 0, Stride>;
    Eigen::Map<RowMat, 0, Stride> cm(c, m, n, Stride(ldc));
    const ConstMap am(a, m, k, Stride(lda));
    if (b_transposed) {
        const ConstMap bm(b, n, k, Stride(ldb));
        if (accumulate)
            cm.noalias() += am * bm.transpose();
        else
            cm.noalias() = am * bm.transpose();
    } else {
        const ConstMap bm(b, k, n, Stride(ldb));
        if (accumulate)
            cm.noalias() += am * bm;
        else
            cm.noalias() = am * bm;
    }
}

#ifdef ATTNVIZ_WITH_OPENBLAS
void sgemm_openblas(bool b_transposed, std::int64_t m, std::int64_t n, std::int64_t k,
                    const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                    std::int64_t ldc, bool accumulate) {
    // The engine spreads work over its own threads: OpenBLAS's would run inside each of them.
    static std::once_flag once;
    std::call_once(once, [] { openblas_set_num_threads(1); });
    constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
    cblas_sgemm(kRowMajor, kNoTrans, b_transposed ? kTrans : kNoTrans, static_cast<int>(m),
                static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b,
                static_cast<int>(ldb), accumulate ? 1.0f : 0.0f, c, static_cast<int>(ldc));
}
#endif

#ifdef ATTNVIZ_WITH_ONEDNN
void sgemm_onednn(bool b_transposed, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                  std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                  bool accumulate) {
    detail::onednn_one_thread();
    const dnnl_status_t status = dnnl_sgemm('N', b_transposed ? 'T' : 'N', m, n, k, 1.0f, a, lda, b,
                                            ldb, accumulate ? 1.0f : 0.0f, c, ldc);
    if (status != dnnl_success)  // only for arguments ops::gemm has already checked
        throw std::invalid_argument("dnnl_sgemm refused [" + std::to_string(m) + "," +
                                    std::to_string(k) + "] x [" + std::to_string(k) + "," +
                                    std::to_string(n) + "] (status " +
                                    std::to_string(static_cast<int>(status)) + ")");
}
#endif

// Fastest first: see the figures at the top of this file.  Those are x86 figures: oneDNN 2.6
// has JIT sgemm kernels for x86 (and 512-bit SVE) only and runs reference loops elsewhere, so on
// other CPUs (AArch64 with NEON) it comes last, after OpenBLAS and Eigen's NEON kernels (not
// measured here).
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#define ATTNVIZ_ONEDNN_FIRST 1
#else
#define ATTNVIZ_ONEDNN_FIRST 0
#endif
constexpr GemmBackend kCompiled[] = {
#if defined(ATTNVIZ_WITH_ONEDNN) && ATTNVIZ_ONEDNN_FIRST
    GemmBackend::OneDnn,
#endif
#ifdef ATTNVIZ_WITH_OPENBLAS
    GemmBackend::OpenBlas,
#endif
    GemmBackend::Eigen,
#if defined(ATTNVIZ_WITH_ONEDNN) && !ATTNVIZ_ONEDNN_FIRST
    GemmBackend::OneDnn,
#endif
};
constexpr GemmBackend kAll[] = {GemmBackend::Eigen, GemmBackend::OpenBlas, GemmBackend::OneDnn};

bool compiled_in(GemmBackend backend) {
    return std::find(std::begin(kCompiled), std::end(kCompiled), backend) != std::end(kCompiled);
}

GemmBackend choose() {
    if (const char* forced = std::getenv("ATTNVIZ_GEMM"); forced && *forced) {
        const GemmBackend b = gemm_backend_from_name(forced);
        if (!compiled_in(b))
            throw std::invalid_argument(std::string("ATTNVIZ_GEMM=") + forced +
                                        " is not compiled into this build");
        return b;
    }
    return kCompiled[0];
}

}  // namespace

const char* gemm_backend_name(GemmBackend backend) {
    switch (backend) {
        case GemmBackend::Eigen:
            return "eigen";
        case GemmBackend::OpenBlas:
            return "openblas";
        case GemmBackend::OneDnn:
            return "onednn";
    }
    return "?";
}

std::string gemm_backend_description(GemmBackend backend) {
    switch (backend) {
        case GemmBackend::Eigen:
            return std::string("Eigen ") + Eigen::SimdInstructionSetsInUse();
        case GemmBackend::OpenBlas:
#ifdef ATTNVIZ_WITH_OPENBLAS
            return std::string("OpenBLAS ") + openblas_get_corename();
#else
            break;
#endif
        case GemmBackend::OneDnn:
#ifdef ATTNVIZ_WITH_ONEDNN
        {
            const dnnl_version_t* v = dnnl_version();
            return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                   std::to_string(v->patch);
        }
#else
            break;
#endif
    }
    return std::string(gemm_backend_name(backend)) + " (not compiled in)";
}

GemmBackend gemm_backend_from_name(const std::string& name) {
    for (GemmBackend b : kAll)
        if (name == gemm_backend_name(b)) return b;
    throw std::invalid_argument("GEMM backend '" + name +
                                "' is not one of eigen, openblas, onednn");
}

std::vector<GemmBackend> gemm_backends() {
    std::vector<GemmBackend> out{gemm_backend()};
    for (GemmBackend b : kCompiled)
        if (b != out.front()) out.push_back(b);
    return out;
}

GemmBackend gemm_backend() {
    static const GemmBackend chosen = choose();
    return chosen;
}

std::size_t gemm_scratch_bytes(GemmBackend backend) {
    return backend == GemmBackend::OneDnn ? std::size_t{256} << 10 : 0;
}

void sgemm(GemmBackend backend, bool b_transposed, std::int64_t m, std::int64_t n, std::int64_t k,
           const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float* c,
           std::int64_t ldc, bool accumulate) {
    if (!compiled_in(backend))
        throw std::invalid_argument(std::string("GEMM backend ") + gemm_backend_name(backend) +
                                    " is not compiled into this build");
    if (m == 0 || n == 0) return;
    if (k == 0) {  // an empty sum (BLAS would also reject lda = 0)
        if (!accumulate)
            for (std::int64_t i = 0; i < m; ++i)
                std::fill_n(c + i * ldc, n, 0.0f);
        return;
    }
    switch (backend) {
        case GemmBackend::Eigen:
            sgemm_eigen(b_transposed, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
            return;
        case GemmBackend::OpenBlas:
#ifdef ATTNVIZ_WITH_OPENBLAS
            sgemm_openblas(b_transposed, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
#endif
            return;
        case GemmBackend::OneDnn:
#ifdef ATTNVIZ_WITH_ONEDNN
            sgemm_onednn(b_transposed, m, n, k, a, lda, b, ldb, c, ldc, accumulate);
#endif
            return;
    }
}

}  // namespace attnviz::kernels
