// Single-thread sgemm throughput of every matrix-product library this machine has, at the
// shapes the engine multiplies, to choose the engine's GEMM backend (engine/kernels/gemm.h).
// Prints one table: GFLOP/s per backend per shape, medians of interleaved rounds.
//
//   gemm_bench [--repeats 7] [--ms 40] [--no-openblas-cores] [--shape MxKxN[n] ...]
//
// --shape (repeatable) times [M x K] * [K x N] with B stored [N, K], as nn.Linear keeps its
// weight (or the keys in QKᵀ), or with a trailing "n" stored [K, N] (the values in P·V), instead
// of the table's shapes: bench/compare_torch.py asks for an attention layer's own products this
// way.
//
// Backends: every one compiled into the engine (kernels/gemm.h, the chosen one first), Eigen's
// own kernels compiled with this build's flags, Debian's OpenBLAS with its Haswell (AVX2) and,
// when the CPU has AVX-512, SkylakeX kernels whatever OPENBLAS_CORETYPE says, oneDNN's
// dnnl_sgemm and BLIS's bli_sgemm.  The libraries the
// engine does not link are opened with dlopen(RTLD_LOCAL), so their BLAS symbols cannot
// replace OpenBLAS's; a missing one is a "-" column.  Rounds are interleaved (each backend once
// per round) so a busy neighbour on a shared machine slows every backend alike; times are the
// thread's CPU time, which preemption does not inflate.
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics when Eigen's GEMM
// kernel is inlined here (the intrinsics' undefined "source" operand): a false positive that
// would fail -Werror builds on AVX-512 machines (as in ops/nn.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <dlfcn.h>

#include <Eigen/Core>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/kernels/gemm.h"

#ifdef ATTNVIZ_WITH_OPENBLAS
extern "C" {
// OpenBLAS 0.3.21's exported core selection (driver/others/dynamic.c): quit forgets the
// chosen kernel table, init picks one again from OPENBLAS_CORETYPE or the CPU.
void gotoblas_dynamic_quit();
void gotoblas_dynamic_init();
char* openblas_get_corename();
}
#endif

namespace {

namespace kernels = attnviz::kernels;

struct Shape {
    std::string what;
    std::int64_t m, n, k;
    bool b_transposed;  // B is [n, k] (a weight as nn.Linear stores it, or the keys in QKᵀ)
};

// The engine's products: BERT-base sized layers for 512 tokens, one head's scores and context,
// a long 2048-token sequence in a 512-wide model and a short one in a 256-wide one.
const Shape kShapes[] = {
    {"qkv 512x768 * 768x2304", 512, 2304, 768, true},
    {"ffn 512x768 * 768x3072", 512, 3072, 768, true},
    {"ffn 512x3072 * 3072x768", 512, 768, 3072, true},
    {"QK^T 512x64 * 64x512", 512, 512, 64, true},
    {"PV 512x512 * 512x64", 512, 64, 512, false},
    {"2048x512 * 512x512", 2048, 512, 512, true},
    {"QK^T 2048x64 * 64x2048", 2048, 2048, 64, true},
    {"QK^T block 32x64 * 64x2048", 32, 2048, 64, true},
    {"QK^T block 128x64 * 64x2048", 128, 2048, 64, true},
    {"QK^T block 256x64 * 64x2048", 256, 2048, 64, true},
    {"QK^T block 32x64 * 64x2048 B", 32, 2048, 64, false},
    {"QK^T block 128x64 * 64x2048 B", 128, 2048, 64, false},
    {"PV block 32x2048 * 2048x64", 32, 64, 2048, false},
    {"PV block 128x2048 * 2048x64", 128, 64, 2048, false},
    {"128x256 * 256x768", 128, 768, 256, true},
    {"QK^T 128x32 * 32x128", 128, 128, 32, true},
    {"1x768 * 768x768", 1, 768, 768, true},
    {"qkv 128x768 * 768x2304", 128, 2304, 768, true},
    {"qkv 128x768 * 768x2304 B", 128, 2304, 768, false},
    {"ffn 128x3072 * 3072x768", 128, 768, 3072, true},
    {"ffn 128x3072 * 3072x768 B", 128, 768, 3072, false},
    // The unembedding of a 151,936-token vocabulary (Qwen2.5-0.5B): the head at 32 positions,
    // and the logit lens of 24 layers stacked.
    {"unembed 32x896 * 896x151936", 32, 151936, 896, true},
    {"lens 768x896 * 896x151936", 768, 151936, 896, true},
};

using GemmFn = std::function<void(const Shape&, const float*, const float*, float*)>;

struct Backend {
    std::string name;
    GemmFn run;
    std::function<void()> before;  // switches a shared library's state before each timing
};

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

void add_eigen(std::vector<Backend>& out) {
    using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    using Map = Eigen::Map<const RowMat>;
    out.push_back({"Eigen (this build's flags)",
                   [](const Shape& s, const float* a, const float* b, float* c) {
                       Eigen::Map<RowMat> cm(c, s.m, s.n);
                       if (s.b_transposed)
                           cm.noalias() = Map(a, s.m, s.k) * Map(b, s.n, s.k).transpose();
                       else
                           cm.noalias() = Map(a, s.m, s.k) * Map(b, s.k, s.n);
                   },
                   {}});
}

void add_engine(std::vector<Backend>& out) {
    for (const kernels::GemmBackend be : kernels::gemm_backends()) {
        out.push_back({std::string("engine: ") + kernels::gemm_backend_name(be) +
                           (be == kernels::gemm_backend() ? " (chosen)" : ""),
                       [be](const Shape& s, const float* a, const float* b, float* c) {
                           kernels::sgemm(be, s.b_transposed, s.m, s.n, s.k, a, s.k, b,
                                          s.b_transposed ? s.k : s.n, c, s.n, false);
                       },
                       {}});
    }
}

#ifdef ATTNVIZ_WITH_OPENBLAS
// OpenBLAS with each of its x86 kernel tables this CPU runs, whatever OPENBLAS_CORETYPE says:
// the core selection is re-run before each timing.  Its own pick (the variable unset) is
// printed with the table; the engine's rows use whatever the process started with.
void add_openblas_cores(std::vector<Backend>& out) {
    const char* env = std::getenv("OPENBLAS_CORETYPE");
    const std::string started = openblas_get_corename();
    const std::string env_value = env ? env : "";
    const auto use = [](const char* core) {
        return [core] {
            gotoblas_dynamic_quit();
            if (core)
                setenv("OPENBLAS_CORETYPE", core, 1);
            else
                unsetenv("OPENBLAS_CORETYPE");
            gotoblas_dynamic_init();
        };
    };
    use(nullptr)();
    const std::string own = openblas_get_corename();
    std::printf("OpenBLAS: OPENBLAS_CORETYPE=%s at start (core %s); its own pick unset: %s\n",
                env ? env_value.c_str() : "(unset)", started.c_str(), own.c_str());
    static std::string started_upper;
    started_upper = started;
    for (char& ch : started_upper)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    for (Backend& b : out)
        if (b.name.find("openblas") != std::string::npos) b.before = use(started_upper.c_str());
    const auto run = [](const Shape& s, const float* a, const float* b, float* c) {
        kernels::sgemm(kernels::GemmBackend::OpenBlas, s.b_transposed, s.m, s.n, s.k, a, s.k, b,
                       s.b_transposed ? s.k : s.n, c, s.n, false);
    };
    out.push_back({"OpenBLAS HASWELL kernels (AVX2)", run, use("HASWELL")});
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
        out.push_back({"OpenBLAS SKYLAKEX kernels (AVX-512)", run, use("SKYLAKEX")});
    use(started_upper.c_str())();
}
#endif

// oneDNN 2.6 (libdnnl2): row-major dnnl_sgemm.  Debian builds it on OpenMP, which must be told
// one thread before libgomp loads, as OMP_NUM_THREADS.
void add_onednn(std::vector<Backend>& out) {
    if (!dlopen("libgomp.so.1", RTLD_NOW | RTLD_NOLOAD)) setenv("OMP_NUM_THREADS", "1", 1);
    void* lib = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    using Fn = int (*)(char, char, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                       std::int64_t, const float*, std::int64_t, float, float*, std::int64_t);
    auto fn = reinterpret_cast<Fn>(dlsym(lib, "dnnl_sgemm"));
    if (!fn) return;
    out.push_back({"oneDNN 2.6 dnnl_sgemm",
                   [fn](const Shape& s, const float* a, const float* b, float* c) {
                       fn('N', s.b_transposed ? 'T' : 'N', s.m, s.n, s.k, 1.0f, a, s.k, b,
                          s.b_transposed ? s.k : s.n, 0.0f, c, s.n);
                   },
                   {}});
}

// BLIS 0.9 (libblis4, whichever threading flavour the alternatives point at; it runs one thread
// unless BLIS_NUM_THREADS says otherwise): the typed API with row and column strides.
void add_blis(std::vector<Backend>& out) {
    void* lib = dlopen("libblis.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    using Fn = void (*)(int, int, std::int64_t, std::int64_t, std::int64_t, const float*,
                        const float*, std::int64_t, std::int64_t, const float*, std::int64_t,
                        std::int64_t, const float*, float*, std::int64_t, std::int64_t);
    auto fn = reinterpret_cast<Fn>(dlsym(lib, "bli_sgemm"));
    if (!fn) return;
    out.push_back({"BLIS 0.9 bli_sgemm",
                   [fn](const Shape& s, const float* a, const float* b, float* c) {
                       const float one = 1.0f, zero = 0.0f;
                       // B as [k, n] with strides: transposed storage is column-major [k, n].
                       const std::int64_t rsb = s.b_transposed ? 1 : s.n;
                       const std::int64_t csb = s.b_transposed ? s.k : 1;
                       fn(0, 0, s.m, s.n, s.k, &one, a, s.k, 1, b, rsb, csb, &zero, c, s.n, 1);
                   },
                   {}});
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 7;
    double target_ms = 40.0;
    bool openblas_cores = true;
    std::vector<Shape> asked;
    const char* usage =
        "usage: %s [--repeats N] [--ms N] [--no-openblas-cores] [--shape MxKxN[n] ...]\n";
    for (int i = 1; i < argc; ++i) {
        // Re-running OpenBLAS's core selection in a live process can overrun the buffers it
        // sized for the first core (a rare crash): a caller that only wants the peak skips it.
        if (std::strcmp(argv[i], "--no-openblas-cores") == 0) {
            openblas_cores = false;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, usage, argv[0]);
            return 2;
        }
        if (std::strcmp(argv[i], "--shape") == 0) {
            long long m = 0, k = 0, n = 0;
            char order = 0, tail = 0;
            const int got =
                std::sscanf(argv[i + 1], "%lldx%lldx%lld%c%c", &m, &k, &n, &order, &tail);
            if ((got != 3 && (got != 4 || order != 'n')) || m < 1 || k < 1 || n < 1) {
                std::fprintf(stderr,
                             "%s: --shape wants MxKxN or MxKxNn, e.g. 512x768x2304, not '%s'\n",
                             argv[0], argv[i + 1]);
                return 2;
            }
            const bool transposed = got == 3;
            asked.push_back({std::to_string(m) + "x" + std::to_string(k) + " * " +
                                 std::to_string(k) + "x" + std::to_string(n) +
                                 (transposed ? "" : " B"),
                             m, n, k, transposed});
        } else if (std::strcmp(argv[i], "--repeats") == 0)
            repeats = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--ms") == 0)
            target_ms = std::max(1.0, std::atof(argv[i + 1]));
        else {
            std::fprintf(stderr, usage, argv[0]);
            return 2;
        }
        ++i;
    }

    std::vector<Backend> backends;
    add_engine(backends);
    add_eigen(backends);
#ifdef ATTNVIZ_WITH_OPENBLAS
    if (openblas_cores) add_openblas_cores(backends);
#else
    (void)openblas_cores;
#endif
    add_onednn(backends);
    add_blis(backends);

    std::printf("single-thread sgemm, GFLOP/s (median of %d interleaved rounds, thread CPU time)\n",
                repeats);
    std::printf("%-26s", "shape [m x k] * [k x n]");
    for (std::size_t i = 0; i < backends.size(); ++i)
        std::printf(" %8s", ("[" + std::to_string(i + 1) + "]").c_str());
    std::printf("\n");

    std::mt19937 rng(13);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    const std::vector<Shape> shapes =
        asked.empty() ? std::vector<Shape>(std::begin(kShapes), std::end(kShapes)) : asked;
    for (const Shape& s : shapes) {
        std::vector<float> a(static_cast<std::size_t>(s.m * s.k));
        std::vector<float> b(static_cast<std::size_t>(s.k * s.n));
        std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
        for (float& v : a)
            v = dist(rng);
        for (float& v : b)
            v = dist(rng);
        const double flop = 2.0 * static_cast<double>(s.m * s.n * s.k);
        // Calls per timing: about target_ms at 100 GFLOP/s.
        const int calls = std::max(1, static_cast<int>(target_ms * 1e-3 * 100e9 / flop));
        std::vector<std::vector<double>> rate(backends.size());
        for (int r = -1; r < repeats; ++r) {  // round -1 warms caches and JIT
            for (std::size_t i = 0; i < backends.size(); ++i) {
                if (backends[i].before) backends[i].before();
                const double t0 = thread_seconds();
                for (int call = 0; call < calls; ++call)
                    backends[i].run(s, a.data(), b.data(), c.data());
                const double t = thread_seconds() - t0;
                if (r >= 0) rate[i].push_back(flop * calls / t * 1e-9);
            }
        }
        std::printf("%-26s", s.what.c_str());
        for (auto& v : rate) {
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2),
                             v.end());
            std::printf(" %8.1f", v[v.size() / 2]);
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    for (std::size_t i = 0; i < backends.size(); ++i)
        std::printf("[%zu] %s\n", i + 1, backends[i].name.c_str());
    return 0;
}
