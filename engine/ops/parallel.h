// Splits [0, count) into contiguous chunks over up to `threads` threads (the calling thread
// takes the first chunk).  Work items must be independent.  With threads <= 1 it is a plain
// call, so single-threaded benchmarks measure no threading overhead.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace attnviz::ops {

template <class Fn>  // Fn(std::size_t begin, std::size_t end)
void parallel_for(std::size_t count, int threads, Fn&& fn) {
    const std::size_t t =
        std::min<std::size_t>(count, static_cast<std::size_t>(std::max(threads, 1)));
    if (t <= 1) {
        if (count) fn(std::size_t{0}, count);
        return;
    }
    std::vector<std::thread> pool;
    std::vector<std::exception_ptr> errors(t);
    const std::size_t chunk = (count + t - 1) / t;
    auto run = [&](std::size_t i) {
        const std::size_t b = i * chunk, e = std::min(count, b + chunk);
        try {
            if (b < e) fn(b, e);
        } catch (...) {
            errors[i] = std::current_exception();
        }
    };
    pool.reserve(t - 1);
    for (std::size_t i = 1; i < t; ++i)
        pool.emplace_back(run, i);
    run(0);
    for (auto& th : pool)
        th.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace attnviz::ops
