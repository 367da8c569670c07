// Row-wise softmax over a rows x cols matrix, one thread: the plain std::exp loop against every
// SIMD variant this CPU can run.  Prints one JSON line per variant and a summary line.
//
//   softmax_bench [--rows 4096] [--cols 512] [--repeats 9]
//
// Repeats are interleaved (every variant once per round) so that a noisy neighbour on a shared
// machine slows all variants alike, and medians are reported, of wall time and of the thread's
// CPU time.  On a loaded machine the CPU time is the fairer of the two: a 10 ms scalar run is
// nearly always preempted at some point and a 1 ms SIMD run rarely, which inflates wall-time
// ratios.  The requirement tracked by the summary is the best variant at least 8x faster than
// the std::exp loop on 4096 x 512, by CPU time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/kernels/softmax.h"

namespace {

namespace kernels = attnviz::kernels;

constexpr double kRequiredSpeedup = 8.0;

struct Options {
    std::size_t rows = 4096;
    std::size_t cols = 512;
    int repeats = 9;
    bool warm = true;
};

[[noreturn]] void usage(const char* argv0) {
    std::fprintf(stderr, "usage: %s [--rows N] [--cols N] [--repeats N] [--cold]\n", argv0);
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const auto value = [&]() -> long {
            if (i + 1 >= argc) usage(argv[0]);
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (end == nullptr || *end != '\0' || v <= 0) usage(argv[0]);
            return v;
        };
        if (std::strcmp(argv[i], "--rows") == 0) {
            o.rows = static_cast<std::size_t>(value());
        } else if (std::strcmp(argv[i], "--cols") == 0) {
            o.cols = static_cast<std::size_t>(value());
        } else if (std::strcmp(argv[i], "--repeats") == 0) {
            o.repeats = static_cast<int>(value());
        } else if (std::strcmp(argv[i], "--cold") == 0) {
            o.warm = false;
        } else {
            usage(argv[0]);
        }
    }
    return o;
}

using RowFn = std::function<bool(const float*, float*, std::size_t)>;

struct Variant {
    std::string name;
    RowFn row;
    std::vector<double> wall_ms, cpu_ms;
    double checksum = 0.0;
};

double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    const Options opt = parse(argc, argv);
    const std::size_t count = opt.rows * opt.cols;

    // Attention-logit-like inputs: scaled dot products of a few units either way.
    std::vector<float> x(count), y(count);
    std::mt19937 rng(42);
    std::normal_distribution<float> dist(0.0f, 3.0f);
    for (auto& v : x)
        v = dist(rng);

    std::vector<Variant> variants;
    variants.push_back({"scalar_std_exp", kernels::softmax_row_reference, {}, {}, 0.0});
    for (kernels::Isa isa : kernels::available_isas()) {
        variants.push_back({kernels::isa_name(isa),
                            [isa](const float* in, float* out, std::size_t n) {
                                return kernels::softmax_row(isa, in, out, n);
                            },
                            {},
                            {},
                            0.0});
    }

    // Returns {wall ms, CPU ms} of one pass over the matrix.
    const auto run = [&](Variant& v) {
        const double cpu_start = thread_cpu_ms();
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t r = 0; r < opt.rows; ++r) {
            v.row(x.data() + r * opt.cols, y.data() + r * opt.cols, opt.cols);
        }
        const auto stop = std::chrono::steady_clock::now();
        const double cpu_stop = thread_cpu_ms();
        // Read the output so the work cannot be elided, and to compare variants.
        double s = 0.0;
        for (std::size_t i = 0; i < count; i += 97)
            s += y[i];
        v.checksum = s;
        return std::pair{std::chrono::duration<double, std::milli>(stop - start).count(),
                         cpu_stop - cpu_start};
    };

    for (auto& v : variants)
        run(v);  // warm-up: page in y, settle clocks
    for (int rep = 0; rep < opt.repeats; ++rep) {
        for (auto& v : variants) {
            if (opt.warm) run(v);  // untimed: the matrix back in cache after the other variants
            const auto [wall, cpu] = run(v);
            v.wall_ms.push_back(wall);
            v.cpu_ms.push_back(cpu);
        }
    }

    const double scalar_cpu = median(variants.front().cpu_ms);
    const double scalar_wall = median(variants.front().wall_ms);
    double best_ratio = 0.0;
    std::string best_name;
    for (const auto& v : variants) {
        const double cpu = median(v.cpu_ms), wall = median(v.wall_ms);
        const double ratio = scalar_cpu / cpu;
        if (&v != &variants.front() && ratio > best_ratio) {
            best_ratio = ratio;
            best_name = v.name;
        }
        std::printf(
            "{\"bench\":\"softmax\",\"variant\":\"%s\",\"rows\":%zu,\"cols\":%zu,\"repeats\":%d,"
            "\"median_cpu_ms\":%.3f,\"median_wall_ms\":%.3f,\"min_wall_ms\":%.3f,"
            "\"ns_per_element\":%.3f,\"speedup_vs_scalar\":%.2f,\"wall_speedup_vs_scalar\":%.2f,"
            "\"checksum\":%.6f}\n",
            v.name.c_str(), opt.rows, opt.cols, opt.repeats, cpu, wall,
            *std::min_element(v.wall_ms.begin(), v.wall_ms.end()),
            cpu * 1e6 / static_cast<double>(count), ratio, scalar_wall / wall, v.checksum);
    }
    std::printf(
        "{\"bench\":\"softmax\",\"summary\":true,\"rows\":%zu,\"cols\":%zu,"
        "\"scalar_median_cpu_ms\":%.3f,\"best_variant\":\"%s\",\"dispatched_variant\":\"%s\","
        "\"best_speedup\":%.2f,\"required_speedup\":%.1f,\"meets_requirement\":%s}\n",
        opt.rows, opt.cols, scalar_cpu, best_name.c_str(), kernels::isa_name(kernels::best_isa()),
        best_ratio, kRequiredSpeedup, best_ratio >= kRequiredSpeedup ? "true" : "false");
    return 0;
}
