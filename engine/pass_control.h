// How a caller watches and stops a long computation (a model's forward pass, a sweep): a
// progress callback and a stop flag.  The engine polls the flag between layers (and within a
// long layer, between blocks) and throws Cancelled when it is set, so a window's Cancel or its
// closing is answered within one layer.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <stdexcept>

namespace attnviz {

/// Thrown by a computation whose PassControl::stop was set.  Not an error: callers drop the
/// partial result and report nothing.
class Cancelled : public std::runtime_error {
  public:
    Cancelled() : std::runtime_error("cancelled") {}
};

struct PassControl {
    /// Set (by any thread) to stop; nullptr: the computation cannot be stopped.
    const std::atomic<bool>* stop = nullptr;
    /// Called on the computing thread after each step (`done` of `total`, 1-based); may be
    /// empty.  It must be cheap and must not throw.
    std::function<void(std::int64_t done, std::int64_t total)> progress;

    bool stopped() const { return stop && stop->load(std::memory_order_relaxed); }
    /// Throws Cancelled if stop is set.
    void check() const {
        if (stopped()) throw Cancelled();
    }
    void report(std::int64_t done, std::int64_t total) const {
        if (progress) progress(done, total);
    }
};

}  // namespace attnviz
