#include "engine/ops/parallel.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace attnviz::ops::detail {

namespace {

thread_local bool t_in_pool = false;

/// How long a thread keeps checking for work (a worker) or for the chunks it waits on (a
/// caller) before it sleeps on a condition variable.  A generation step hands the pool a
/// hundred products a few tens of microseconds apart; waking a sleeping thread costs about as
/// much as one of them, so each product paid it twice.  About 50 µs of pause instructions.
constexpr int kSpins = 2000;

inline void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

/// Spins until `ready()` or kSpins pauses have passed; whether it became ready.
template <class Ready>
bool spin_until(Ready ready) {
    for (int i = 0; i < kSpins; ++i) {
        if (ready()) return true;
        pause();
    }
    return ready();
}

/// One call's chunks: counted down by whoever runs them.  `pending` changes only under
/// `mutex`, and a runner's last touch of the batch is that mutex's unlock: the caller, which
/// takes the mutex before it returns, never frees a batch a runner still reads.
struct Batch {
    const std::function<void(std::size_t)>* task = nullptr;
    std::vector<std::exception_ptr> errors;
    std::atomic<std::size_t> pending{0};
    std::mutex mutex;
    std::condition_variable done;
};

class Pool {
  public:
    static Pool& instance() {
        static Pool pool;
        return pool;
    }

    void submit(Batch* batch, std::size_t chunks) {
        {
            std::lock_guard lock(mutex_);
            // Grow to what the widest call asked for: a process that computes on one thread
            // starts none.
            while (workers_.size() < chunks - 1)
                workers_.emplace_back([this] { work(); });
            for (std::size_t i = 1; i < chunks; ++i)
                queue_.push_back({batch, i});
            queued_.store(queue_.size(), std::memory_order_release);
        }
        wake_.notify_all();
    }

    ~Pool() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& w : workers_)
            w.join();
    }

  private:
    struct Item {
        Batch* batch;
        std::size_t chunk;
    };

    void work() {
        t_in_pool = true;
        for (;;) {
            Item item;
            // Work that comes soon after the last is taken without sleeping.
            spin_until([&] { return queued_.load(std::memory_order_acquire) != 0; });
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
                if (queue_.empty()) return;
                item = queue_.front();
                queue_.pop_front();
                queued_.store(queue_.size(), std::memory_order_release);
            }
            run(item.batch, item.chunk);
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Item> queue_;
    std::atomic<std::size_t> queued_{0};  ///< queue_.size(), read without the lock
    std::vector<std::thread> workers_;
    bool stop_ = false;

  public:
    static void run(Batch* b, std::size_t chunk) {
        try {
            (*b->task)(chunk);
        } catch (...) {
            b->errors[chunk] = std::current_exception();
        }
        std::lock_guard lock(b->mutex);
        if (b->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) b->done.notify_all();
    }
};

}  // namespace

void run_chunks(std::size_t chunks, const std::function<void(std::size_t)>& task) {
    if (t_in_pool || chunks <= 1) {
        std::exception_ptr first;
        for (std::size_t i = 0; i < chunks; ++i) {
            try {
                task(i);
            } catch (...) {
                if (!first) first = std::current_exception();
            }
        }
        if (first) std::rethrow_exception(first);
        return;
    }
    Batch batch;
    batch.task = &task;
    batch.errors.resize(chunks);
    batch.pending.store(chunks);
    Pool::instance().submit(&batch, chunks);
    Pool::run(&batch, 0);
    spin_until([&] { return batch.pending.load(std::memory_order_acquire) == 0; });
    {
        std::unique_lock lock(batch.mutex);
        batch.done.wait(lock, [&] { return batch.pending.load(std::memory_order_acquire) == 0; });
    }
    for (auto& e : batch.errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace attnviz::ops::detail
