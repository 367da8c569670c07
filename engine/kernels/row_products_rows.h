// Internal to engine/kernels: how the SIMD units of row_products.h walk the rows.  Include it
// only from those units: everything here is in an anonymous namespace and calls no inline
// standard-library function, so each unit gets its own copy built for its own instruction set
// (see softmax_impl.h for why nothing else may be shared).
#pragma once

#include <xmmintrin.h>

#include <cstddef>
#include <cstdint>

namespace attnviz::kernels {
namespace {

using RowByte = std::uint8_t;

/// Rows multiplied together: each load of the activation serves all of them.  (Eight kept no
/// more of the bandwidth than four for these formats, within this machine's noise.)
constexpr int kRowsTogether = 4;

/// How far ahead the rows are prefetched, at least: enough bytes in flight to cover the
/// memory's latency at its bandwidth (~100 ns at 20-30 GB/s is 2-3 KB a thread), with margin.
constexpr std::size_t kPrefetchBytes = 8192;

/// p + bytes computed as an integer, for addresses that may lie past the rows: those of
/// prefetches, and of masked loads that read nothing there.
[[gnu::always_inline]] inline const RowByte* byte_address(const void* p, std::size_t bytes) {
    return reinterpret_cast<const RowByte*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}

/// Prefetches the cache line of ahead + at (any address: a prefetch does not fault).
[[gnu::always_inline]] inline void prefetch_row(const RowByte* ahead, std::size_t at) {
    _mm_prefetch(reinterpret_cast<const char*>(byte_address(ahead, at)), _MM_HINT_T0);
}

/// Runs kernel.run<R>(rows, ahead, out) over the n rows, R at a time (the last n % R rows one
/// at a time), and stores (or adds) the results.  The kernel reads row r at offset `at` and
/// calls prefetch_row(ahead[r], at): the same offset in the row as many whole groups of rows
/// later as make kPrefetchBytes (near the end, a fixed distance ahead in its own row).
///
/// Why: the hardware prefetchers alone leave these loops at 40-60% of a streaming read of the
/// same bytes: a kernel does several times more work per cache line than the read does, so
/// fewer misses are in flight, and four interleaved rows of 504 bytes (Q4_0, k = 896) hardly
/// train a prefetcher.  A fixed distance ahead in the row does not cover short rows.  The same
/// offset some rows later prefetches exactly the bytes the loop will read, whatever the rows'
/// length and order (docs/benchmarks.md, "One-row products").
template <class Kernel, int R = kRowsTogether>
void each_row_group(const std::byte* base, std::size_t row_bytes, const std::int64_t* order,
                    std::int64_t n, float* y, bool accumulate, const Kernel& kernel) {
    const auto row = [&](std::int64_t i) {
        const auto index = static_cast<std::size_t>(order ? order[i] : i);
        return reinterpret_cast<const RowByte*>(base + index * row_bytes);
    };
    const std::size_t group_bytes = row_bytes * R;
    const auto lead =
        static_cast<std::int64_t>(R * ((kPrefetchBytes + group_bytes - 1) / group_bytes));
    const auto store = [&](std::int64_t i, float v) { y[i] = accumulate ? y[i] + v : v; };
    std::int64_t i = 0;
    for (; i + R <= n; i += R) {
        const RowByte* rows[R];
        const RowByte* ahead[R];
        for (int r = 0; r < R; ++r) {
            rows[r] = row(i + r);
            ahead[r] = i + lead + r < n ? row(i + lead + r) : byte_address(rows[r], kPrefetchBytes);
        }
        float out[R];
        kernel.template run<R>(rows, ahead, out);
        for (int r = 0; r < R; ++r)
            store(i + r, out[r]);
    }
    for (; i < n; ++i) {
        const RowByte* one = row(i);
        const RowByte* ahead = byte_address(one, kPrefetchBytes);
        float out;
        kernel.template run<1>(&one, &ahead, &out);
        store(i, out);
    }
}

}  // namespace
}  // namespace attnviz::kernels
