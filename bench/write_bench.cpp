// One core's rate of writing a result to memory that it does not read back: the per-head
// weights of an attention layer, written with the engine's own non-temporal row stores
// (kernels/attention.h's store_rows), from a cache-sized block of rows as attend() writes them.
// bench/compare_torch.py takes it for the least time the weights' write can cost, which its
// float32 floor otherwise counts as free.
//
//   write_bench --floats N [--cols C] [--repeats 7]
//
// Writes N floats (whole rows of C, 2048 by default) into one buffer, touched once before the
// timing so that no page fault is timed, from one block of rows as attend() sizes it
// (layers::rows_per_block); prints one JSON line: the median wall time and the rate in GB/s
// (1e9 bytes).  Exits 2 on bad arguments, 1 when the buffer cannot be had.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include "engine/kernels/attention.h"
#include "engine/kernels/softmax.h"
#include "engine/layers/attention_core.h"

namespace {

namespace kernels = attnviz::kernels;

[[noreturn]] void usage(const char* argv0) {
    std::fprintf(stderr, "usage: %s --floats N [--cols C] [--repeats R]\n", argv0);
    std::exit(2);
}

std::int64_t positive(const char* argv0, const char* text) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || v < 1) usage(argv0);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    std::int64_t floats = 0, cols = 2048, repeats = 7;
    for (int i = 1; i < argc; ++i) {
        if (i + 1 >= argc) usage(argv[0]);
        if (std::strcmp(argv[i], "--floats") == 0)
            floats = positive(argv[0], argv[i + 1]);
        else if (std::strcmp(argv[i], "--cols") == 0)
            cols = positive(argv[0], argv[i + 1]);
        else if (std::strcmp(argv[i], "--repeats") == 0)
            repeats = positive(argv[0], argv[i + 1]);
        else
            usage(argv[0]);
        ++i;
    }
    if (floats < cols) usage(argv[0]);
    const std::int64_t rows = floats / cols;
    const std::int64_t block = attnviz::layers::rows_per_block(rows, cols, 1, 1);
    const kernels::Isa isa = kernels::best_isa();
    std::vector<float> src, dst;
    try {
        src.resize(static_cast<std::size_t>(block * cols));
        dst.assign(static_cast<std::size_t>(rows * cols), 1.0f);  // touched: no faults
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: %lld floats do not fit in memory\n", argv[0],
                     static_cast<long long>(rows * cols));
        return 1;
    }
    for (std::size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<float>(i % 977) * 1e-3f;
    std::vector<double> ms;
    for (std::int64_t r = 0; r < repeats; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (std::int64_t r0 = 0; r0 < rows; r0 += block)
            kernels::store_rows(isa, src.data(), cols, std::min(block, rows - r0), cols, 1.0f,
                                dst.data() + r0 * cols, cols, true);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double bytes = static_cast<double>(rows * cols) * sizeof(float);
    std::printf(
        "{\"bench\":\"write\",\"isa\":\"%s\",\"floats\":%lld,\"cols\":%lld,"
        "\"median_ms\":%.4f,\"gb_per_s\":%.2f,\"check\":%g}\n",
        kernels::isa_name(isa), static_cast<long long>(rows * cols), static_cast<long long>(cols),
        median, bytes / median / 1e6,
        static_cast<double>(dst[static_cast<std::size_t>(rows * cols - 1)]));
    return 0;
}
