#include "alloc_counter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
#define ATTNVIZ_SANITIZED_HEAP 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ATTNVIZ_SANITIZED_HEAP 1
#endif

namespace {
std::atomic<std::int64_t> g_live{0};
std::atomic<std::int64_t> g_peak{0};
}  // namespace

#if !defined(ATTNVIZ_SANITIZED_HEAP) && defined(__GLIBC__)
#include <malloc.h>

// glibc's allocator under its internal names: the replacements below forward to it, which
// glibc documents as the way to wrap malloc ("Replacing malloc").
extern "C" {
void* __libc_malloc(std::size_t);
void __libc_free(void*);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_valloc(std::size_t);
void* __libc_pvalloc(std::size_t);
}

namespace {
void* added(void* p) {
    if (p) {
        const auto now = g_live.fetch_add(std::int64_t(malloc_usable_size(p))) +
                         std::int64_t(malloc_usable_size(p));
        auto peak = g_peak.load();
        while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
        }
    }
    return p;
}
void removed(void* p) {
    if (p) g_live.fetch_sub(std::int64_t(malloc_usable_size(p)));
}
}  // namespace

extern "C" {
void* malloc(std::size_t n) {
    return added(__libc_malloc(n));
}
void free(void* p) {
    removed(p);
    __libc_free(p);
}
void* calloc(std::size_t n, std::size_t size) {
    return added(__libc_calloc(n, size));
}
void* realloc(void* p, std::size_t n) {
    removed(p);
    void* q = __libc_realloc(p, n);
    if (!q && p && n) added(p);  // failed: the old block is still there
    return added(q);
}
void* memalign(std::size_t alignment, std::size_t n) {
    return added(__libc_memalign(alignment, n));
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
    return added(__libc_memalign(alignment, n));
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
    if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void* p = added(__libc_memalign(alignment, n));
    if (!p && n) return ENOMEM;
    *out = p;
    return 0;
}
void* valloc(std::size_t n) {
    return added(__libc_valloc(n));
}
void* pvalloc(std::size_t n) {
    return added(__libc_pvalloc(n));
}
}

namespace attnviz::test {
bool heap_counting_available() {
    return true;
}
}  // namespace attnviz::test
#else
namespace attnviz::test {
bool heap_counting_available() {
    return false;
}
}  // namespace attnviz::test
#endif

namespace attnviz::test {
void reset_heap_peak() {
    g_peak.store(g_live.load());
}
std::int64_t heap_live_bytes() {
    return g_live.load();
}
std::int64_t heap_peak_bytes() {
    return g_peak.load();
}
}  // namespace attnviz::test
