// Splits [0, count) into contiguous chunks over up to `threads` threads (the calling thread
// takes the first chunk) of a pool that lives as long as the program: starting and joining
// threads on every call cost a small forward pass a tenth of its time.  Chunks are the same
// whatever thread runs them, so results never depend on scheduling.  Work items must be
// independent.  With threads <= 1 it is a plain call, so single-threaded benchmarks measure no
// threading overhead.  A call from inside a pool task runs its chunks on the calling thread
// (no nested waiting, so no deadlock).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

namespace attnviz::ops {

namespace detail {
/// Runs task(i) for i in [1, chunks) on pool threads and task(0) on the caller; returns when
/// every chunk has finished, rethrowing the first chunk's exception (in chunk order).
void run_chunks(std::size_t chunks, const std::function<void(std::size_t)>& task);
}  // namespace detail

/// How many chunks parallel_chunks() splits `count` items into on `threads` threads.
inline std::size_t chunk_count(std::size_t count, int threads) {
    return std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1)));
}

/// parallel_for() that also hands each chunk its index in [0, chunk_count(count, threads)):
/// no two calls with the same index run at once, so a chunk may accumulate into storage of
/// its own without locks.
template <class Fn>  // Fn(std::size_t chunk, std::size_t begin, std::size_t end)
void parallel_chunks(std::size_t count, int threads, Fn&& fn) {
    const std::size_t t = chunk_count(count, threads);
    if (t <= 1) {
        if (count) fn(std::size_t{0}, std::size_t{0}, count);
        return;
    }
    const std::size_t chunk = (count + t - 1) / t;
    detail::run_chunks(t, [&](std::size_t i) {
        const std::size_t b = i * chunk, e = std::min(count, b + chunk);
        if (b < e) fn(i, b, e);
    });
}

template <class Fn>  // Fn(std::size_t begin, std::size_t end)
void parallel_for(std::size_t count, int threads, Fn&& fn) {
    parallel_chunks(count, threads, [&](std::size_t, std::size_t b, std::size_t e) { fn(b, e); });
}

/// parallel_for() over blocks of `grain` items that each thread takes as it comes free, for
/// work whose items' results do not depend on how [0, count) is cut.  The blocks are the same
/// whatever thread runs them.  With the same split in halves, a thread that shares its core
/// with another process or thread (the window's drawing, beside a generation's step) finishes
/// its half late while the other waits: here the free thread takes more of the blocks.
template <class Fn>  // Fn(std::size_t begin, std::size_t end)
void parallel_for_balanced(std::size_t count, int threads, std::size_t grain, Fn&& fn) {
    grain = std::max<std::size_t>(grain, 1);
    const std::size_t blocks = (count + grain - 1) / grain;
    const std::size_t t = chunk_count(blocks, threads);
    if (t <= 1) {
        if (count) fn(std::size_t{0}, count);
        return;
    }
    std::atomic<std::size_t> next{0};
    detail::run_chunks(t, [&](std::size_t) {
        for (std::size_t b = next.fetch_add(1, std::memory_order_relaxed); b < blocks;
             b = next.fetch_add(1, std::memory_order_relaxed))
            fn(b * grain, std::min(count, (b + 1) * grain));
    });
}

}  // namespace attnviz::ops
