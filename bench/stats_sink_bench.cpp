// The statistics pass's own reduction (models::HeadStatisticsSink::on_rows) without the model:
// one layer of `heads` causal L × L maps handed over in blocks of 64 rows on one slot, as the
// attention core hands them, timed by the thread's CPU time (a shared machine's fairer figure).
// Prints one JSON line: nanoseconds per attention weight a query sees, and seconds for the
// layer.
//
//   stats_sink_bench [--tokens 4096] [--heads 14] [--repeats 5] [--log 0]
//
// As the attention core hands them, the blocks carry each row's entropy (the softmax's exp pass
// computed it) and only the causal part of each row; --log 1 leaves the entropy out, so that the
// reduction takes a logarithm of each weight (what the pass did before, and still does for maps
// read from a file).
//
// The rows are synthetic (a sink on the first token, a local window, a flat rest, normalised):
// the reduction's cost does not depend on the values.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "engine/models/head_statistics.h"

namespace {

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

[[noreturn]] void usage(const char* argv0) {
    std::fprintf(stderr, "usage: %s [--tokens N] [--heads N] [--repeats N] [--log 0|1]\n", argv0);
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t L = 4096, H = 14;
    int repeats = 5;
    bool log = false;
    for (int i = 1; i < argc; i += 2) {  // --name value pairs
        if (i + 1 >= argc) usage(argv[0]);
        const long v = std::strtol(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--log") == 0) {
            log = v != 0;
            continue;
        }
        if (v <= 0) usage(argv[0]);
        if (std::strcmp(argv[i], "--tokens") == 0)
            L = v;
        else if (std::strcmp(argv[i], "--heads") == 0)
            H = v;
        else if (std::strcmp(argv[i], "--repeats") == 0)
            repeats = int(v);
        else
            usage(argv[0]);
    }
    constexpr std::int64_t kBlock = 64;
    std::vector<float> block(std::size_t(kBlock * L), 0.0f);
    std::vector<double> entropy(std::size_t(kBlock), 1.0);  // its value costs nothing
    std::vector<double> times;
    for (int rep = 0; rep < repeats; ++rep) {
        attnviz::models::HeadStatisticsSink sink(1, H, L, true);
        double spent = 0;
        sink.begin_rows(0, 1);
        for (std::int64_t h = 0; h < H; ++h)
            for (std::int64_t i0 = 0; i0 < L; i0 += kBlock) {
                const std::int64_t rows = std::min(kBlock, L - i0);
                for (std::int64_t r = 0; r < rows; ++r) {
                    const std::int64_t i = i0 + r;
                    float* row = block.data() + r * L;
                    float sum = 0;
                    for (std::int64_t j = 0; j <= i; ++j)
                        sum += row[j] = j == 0 ? 8.0f : i - j < 16 ? 2.0f : 0.01f;
                    for (std::int64_t j = 0; j <= i; ++j)
                        row[j] /= sum;
                }
                const double t0 = cpu_seconds();
                sink.on_rows(0, 0,
                             attnviz::RowBlock{0, h, i0, rows, L, block.data(), true, nullptr,
                                               log ? nullptr : entropy.data()});
                spent += cpu_seconds() - t0;
            }
        const double t0 = cpu_seconds();
        sink.end_rows(0);
        spent += cpu_seconds() - t0;
        times.push_back(spent);
    }
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    std::printf(
        "{\"bench\": \"stats_sink\", \"tokens\": %lld, \"heads\": %lld, \"layer_s\": %.4f, "
        "\"ns_per_weight\": %.3f}\n",
        static_cast<long long>(L), static_cast<long long>(H), median,
        1e9 * median / (double(H) * double(L) * double(L + 1) / 2));
    return 0;
}
