// For the tests of threads: a gate that holds a worker where the test wants it, so that nothing
// depends on timing.  Header-only, like window_support.h.
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

namespace attnviz::test {

/// Holds a worker thread until released (or until `give_up` says so), with a bound so that a
/// broken test fails instead of hanging.
class Gate {
  public:
    template <typename GiveUp>
    void wait(GiveUp&& give_up) {
        reached_ = true;
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (!open_ && !give_up() && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    void wait() {
        wait([] { return false; });
    }
    void open() { open_ = true; }
    bool reached() const { return reached_; }

  private:
    std::atomic<bool> open_{false};
    std::atomic<bool> reached_{false};
};

}  // namespace attnviz::test
