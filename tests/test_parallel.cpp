// ops::parallel_for on the persistent pool: every item exactly once, the same chunks whatever
// the scheduling, exceptions carried back to the caller, nested and concurrent calls; and
// ops::parallel_for_balanced: the same blocks of `grain` items, a busy thread's share taken by
// the free one.
#include <QTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/ops/parallel.h"

using attnviz::ops::parallel_for;
using attnviz::ops::parallel_for_balanced;

class TestParallel : public QObject {
    Q_OBJECT
  private slots:
    void everyItemOnceInFixedChunks() {
        for (int threads : {1, 2, 3, 8})
            for (std::size_t count :
                 {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
                std::vector<std::atomic<int>> hits(count);
                std::vector<std::pair<std::size_t, std::size_t>> chunks(
                    static_cast<std::size_t>(threads), {0, 0});
                std::atomic<int> calls{0};
                parallel_for(count, threads, [&](std::size_t b, std::size_t e) {
                    for (std::size_t i = b; i < e; ++i)
                        hits[i]++;
                    ++calls;
                });
                for (std::size_t i = 0; i < count; ++i)
                    QCOMPARE(hits[i].load(), 1);
                const std::size_t t =
                    std::min<std::size_t>(count, static_cast<std::size_t>(threads));
                QCOMPARE(calls.load(), static_cast<int>(t));
            }
    }

    void chunksAreContiguousAndIndependentOfScheduling() {
        // Chunk i always covers [i * ceil(n/t), ...): results written per chunk are identical
        // run after run.
        std::vector<std::size_t> first_begin(100, 0);
        for (int run = 0; run < 20; ++run) {
            std::vector<std::size_t> begin_of(100, 0);
            parallel_for(100, 3, [&](std::size_t b, std::size_t e) {
                for (std::size_t i = b; i < e; ++i)
                    begin_of[i] = b;
            });
            if (run == 0)
                first_begin = begin_of;
            else
                QCOMPARE(begin_of, first_begin);
        }
        QCOMPARE(first_begin[33], std::size_t{0});
        QCOMPARE(first_begin[34], std::size_t{34});
        QCOMPARE(first_begin[99], std::size_t{68});
    }

    void anExceptionReachesTheCaller() {
        for (int threads : {1, 4}) {
            bool caught = false;
            try {
                parallel_for(64, threads, [&](std::size_t b, std::size_t e) {
                    if (e > 16) throw std::invalid_argument("chunk at " + std::to_string(b));
                });
            } catch (const std::invalid_argument& e) {
                caught = true;
                if (threads > 1) QCOMPARE(std::string(e.what()), std::string("chunk at 16"));
            }
            QVERIFY(caught);
        }
        // The pool still works afterwards.
        std::atomic<int> sum{0};
        parallel_for(10, 4, [&](std::size_t b, std::size_t e) { sum += static_cast<int>(e - b); });
        QCOMPARE(sum.load(), 10);
    }

    void balancedBlocksCoverEveryItemOnce() {
        using Block = std::pair<std::size_t, std::size_t>;
        for (int threads : {1, 2, 3, 8})
            for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7},
                                      std::size_t{64}, std::size_t{1001}})
                for (std::size_t grain : {std::size_t{0}, std::size_t{1}, std::size_t{16}}) {
                    std::vector<std::atomic<int>> hits(count);
                    std::mutex mutex;
                    std::set<Block> blocks;
                    parallel_for_balanced(count, threads, grain, [&](std::size_t b, std::size_t e) {
                        for (std::size_t i = b; i < e; ++i)
                            hits[i]++;
                        const std::lock_guard lock(mutex);
                        blocks.insert({b, e});
                    });
                    for (std::size_t i = 0; i < count; ++i)
                        QCOMPARE(hits[i].load(), 1);
                    if (threads == 1) {  // a plain call over everything
                        QCOMPARE(blocks.size(), std::size_t{count > 0});
                        continue;
                    }
                    // Blocks of `grain` items (0 counts as 1), the last one shorter.
                    const std::size_t g = std::max<std::size_t>(grain, 1);
                    QCOMPARE(blocks.size(), (count + g - 1) / g);
                    for (const auto& [b, e] : blocks) {
                        QCOMPARE(b % g, std::size_t{0});
                        QCOMPARE(e, std::min(count, b + g));
                    }
                }
    }

    void aBusyThreadLeavesItsBlocksToTheOther() {
        // The first block holds its thread, as a core shared with the window's drawing does,
        // until every other block is done (or 10 s): the other thread takes them all.  Split
        // in halves, half of them would wait behind the first, and the check would fail.
        std::mutex mutex;
        std::condition_variable changed;
        std::vector<std::thread::id> runner(32);
        int others_done = 0;
        parallel_for_balanced(32, 2, 1, [&](std::size_t b, std::size_t) {
            std::unique_lock lock(mutex);
            runner[b] = std::this_thread::get_id();
            if (b == 0) {
                changed.wait_for(lock, std::chrono::seconds(10), [&] { return others_done == 31; });
                return;
            }
            ++others_done;
            changed.notify_all();
        });
        QCOMPARE(others_done, 31);
        const auto others = std::count_if(runner.begin() + 1, runner.end(),
                                          [&](std::thread::id t) { return t != runner[0]; });
        QCOMPARE(others, std::ptrdiff_t{31});
    }

    void anExceptionInABalancedBlockReachesTheCaller() {
        std::atomic<int> done{0};
        bool caught = false;
        try {
            parallel_for_balanced(64, 2, 4, [&](std::size_t b, std::size_t) {
                if (b == 8) throw std::invalid_argument("block at 8");
                ++done;
            });
        } catch (const std::invalid_argument& e) {
            caught = true;
            QCOMPARE(std::string(e.what()), std::string("block at 8"));
        }
        QVERIFY(caught);
        QCOMPARE(done.load(), 15);  // the thrower's thread stopped; the other took the rest
    }

    void nestedAndConcurrentCallsFinish() {
        std::atomic<int> total{0};
        std::vector<std::thread> callers;
        for (int c = 0; c < 3; ++c)
            callers.emplace_back([&] {
                for (int rep = 0; rep < 50; ++rep)
                    parallel_for(8, 4, [&](std::size_t b, std::size_t e) {
                        parallel_for(e - b, 2, [&](std::size_t bb, std::size_t ee) {
                            total += static_cast<int>(ee - bb);
                        });
                    });
            });
        for (auto& t : callers)
            t.join();
        QCOMPARE(total.load(), 3 * 50 * 8);
    }
};

QTEST_GUILESS_MAIN(TestParallel)
#include "test_parallel.moc"
