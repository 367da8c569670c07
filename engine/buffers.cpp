#include "engine/buffers.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <deque>
#include <mutex>

#include "engine/budget/memory_budget.h"

namespace attnviz {

namespace {

// Small passes (128 tokens: 0.5 MiB of weights, 0.4 MiB of q, k and v) gain as much from reuse
// as large ones: a fresh vector's zero fill was 5% of such a pass.
constexpr std::size_t kMinFloats = (std::size_t{64} << 10) / sizeof(float);  // 64 KiB
constexpr std::size_t kMaxKept = 8;

/// 1 GiB, or a sixteenth of the machine's memory when that is less.
std::size_t max_kept_bytes() {
    static const std::size_t bytes = static_cast<std::size_t>(
        std::min<std::uint64_t>(std::uint64_t{1} << 30, budget::usable_memory_bytes() / 16));
    return bytes;
}

struct Kept {
    std::mutex mutex;
    std::deque<std::vector<float>> buffers;  // oldest first
    std::size_t bytes = 0;

    static Kept& instance() {
        static Kept kept;
        return kept;
    }
};

std::size_t bytes_of(const std::vector<float>& v) {
    return v.capacity() * sizeof(float);
}

void request_huge_pages([[maybe_unused]] const std::vector<float>& v) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t last = (begin + v.capacity() * sizeof(float)) & ~(kHuge - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#endif
}

}  // namespace

std::vector<float> take_buffer(std::size_t n) {
    std::deque<std::vector<float>> freed;  // freed outside the lock
    if (n >= kMinFloats) {
        Kept& k = Kept::instance();
        std::lock_guard lock(k.mutex);
        auto best = k.buffers.end();
        for (auto it = k.buffers.begin(); it != k.buffers.end(); ++it)
            if (it->capacity() >= n && it->capacity() <= n + n / 4 &&
                (best == k.buffers.end() || it->capacity() < best->capacity()))
                best = it;
        if (best != k.buffers.end()) {
            std::vector<float> v = std::move(*best);
            k.buffers.erase(best);
            k.bytes -= bytes_of(v);
            v.resize(n);  // only what lies beyond its last size is written (zeros)
            return v;
        }
        // Another size: the work has changed, and the memory kept for the old sizes is freed
        // before more is taken, so the process holds no more than the new work needs.
        freed.swap(k.buffers);
        k.bytes = 0;
    }
    freed.clear();
    std::vector<float> v;
    v.reserve(n);
    request_huge_pages(v);
    v.resize(n);
    return v;
}

Tensor take_tensor(const Shape& shape) {
    Tensor t;
    t.data = take_buffer(shape_numel(shape));
    t.shape = shape;
    return t;
}

void release_buffer(std::vector<float>& buffer) {
    std::vector<float> v = std::move(buffer);
    buffer = {};
    if (v.capacity() < kMinFloats || bytes_of(v) > max_kept_bytes()) return;
    Kept& k = Kept::instance();
    std::deque<std::vector<float>> freed;  // freed outside the lock
    std::lock_guard lock(k.mutex);
    k.bytes += bytes_of(v);
    k.buffers.push_back(std::move(v));
    while (k.buffers.size() > kMaxKept || k.bytes > max_kept_bytes()) {
        k.bytes -= bytes_of(k.buffers.front());
        freed.push_back(std::move(k.buffers.front()));
        k.buffers.pop_front();
    }
}

void release_buffer(Tensor& tensor) {
    release_buffer(tensor.data);
    tensor.shape.clear();
}

void drop_kept_buffers() {
    Kept& k = Kept::instance();
    std::deque<std::vector<float>> freed;
    std::lock_guard lock(k.mutex);
    freed.swap(k.buffers);
    k.bytes = 0;
}

std::size_t kept_buffer_bytes() {
    Kept& k = Kept::instance();
    std::lock_guard lock(k.mutex);
    return k.bytes;
}

}  // namespace attnviz
