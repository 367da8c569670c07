// ops::parallel_for on the persistent pool: every item exactly once, the same chunks whatever
// the scheduling, exceptions carried back to the caller, nested and concurrent calls.
#include <QTest>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/ops/parallel.h"

using attnviz::ops::parallel_for;

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
