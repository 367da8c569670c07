// BackgroundJob (ui/compute/background_job.h), the one shape of the window's background work:
// a replaced job's late result is dropped and the new work starts after the old one ended,
// cancel() stops the work at its next unit, progress and posts arrive in order on the GUI thread
// before the result, an exception's message arrives, and destroying the owner while its work
// runs neither waits for the work nor lets anything of it through.  The worker is held by a
// gate where it matters, so nothing depends on timing.
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gate.h"
#include "ui/compute/background_job.h"

using namespace attnviz;
using namespace attnviz::ui;

using test::Gate;

namespace {

/// Every job's thread has returned and what they posted has been handed over (or dropped).
bool drained() {
    if (!QTest::qWaitFor([] { return BackgroundJob::runningThreads() == 0; }, 30000)) return false;
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    return true;
}

}  // namespace

class BackgroundJobTest : public QObject {
    Q_OBJECT

  private slots:
    void cleanup() { QVERIFY(drained()); }

    void aReplacedJobsLateResultIsDropped() {
        BackgroundJob job;
        Gate gate;
        std::atomic<bool> first_ended{false}, second_saw_first_ended{false};
        std::vector<int> results;
        int other = 0;
        // The first work ignores its stop flag: it returns its result after it was replaced.
        job.start(
            [&](const JobControl&) {
                gate.wait();
                first_ended = true;
                return 1;
            },
            {.finished = [&](int v) { results.push_back(v); },
             .failed = [&](const QString&) { ++other; },
             .cancelled = [&] { ++other; }});
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 10000);
        job.start(
            [&](const JobControl&) {
                second_saw_first_ended = first_ended.load();
                return 2;
            },
            {.finished = [&](int v) { results.push_back(v); }});
        QVERIFY(job.isRunning());
        gate.open();
        QTRY_VERIFY_WITH_TIMEOUT(!job.isRunning(), 10000);
        QVERIFY(drained());
        QCOMPARE(results, std::vector<int>{2});
        QCOMPARE(other, 0);
        QVERIFY(second_saw_first_ended.load());  // one work at a time
    }

    void cancelStopsTheWorkAtItsNextUnit() {
        BackgroundJob job;
        Gate gate;
        std::atomic<int> units{0};
        bool finished = false, cancelled = false;
        job.start(
            [&](const JobControl& control) {
                for (int u = 1; u <= 1000; ++u) {
                    control.check();
                    units = u;
                    if (u == 3) gate.wait();  // held in its third unit until Cancel
                }
                return units.load();
            },
            {.finished = [&](int) { finished = true; }, .cancelled = [&] { cancelled = true; }});
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 10000);
        job.cancel();
        QVERIFY(job.isRunning());  // until its end is handed over
        gate.open();
        QTRY_VERIFY_WITH_TIMEOUT(cancelled, 10000);
        QVERIFY(!finished);
        QCOMPARE(units.load(), 3);
        QVERIFY(!job.isRunning());
    }

    void progressAndPostsArriveInOrderOnTheGuiThreadBeforeTheResult() {
        BackgroundJob job;
        std::vector<int> events;  // done for progress, -1 for the post, 1000 + the result
        bool all_on_gui_thread = true;
        const auto on_gui = [&] {
            all_on_gui_thread = all_on_gui_thread &&
                                QThread::currentThread() == QCoreApplication::instance()->thread();
        };
        job.start(
            [](const JobControl& control) {
                for (int i = 1; i <= 50; ++i)
                    control.report(i, 50);
                return 7;
            },
            {.finished =
                 [&](int v) {
                     on_gui();
                     events.push_back(1000 + v);
                 },
             .progressed =
                 [&](std::int64_t done, std::int64_t total) {
                     on_gui();
                     events.push_back(total == 50 ? int(done) : -2);
                 }});
        QTRY_VERIFY_WITH_TIMEOUT(!events.empty() && events.back() == 1007, 10000);
        std::vector<int> expected;
        for (int i = 1; i <= 50; ++i)
            expected.push_back(i);
        expected.push_back(1007);
        QCOMPARE(events, expected);
        QVERIFY(all_on_gui_thread);

        // What the work posts itself comes in order with its progress.
        events.clear();
        job.start(
            [&events, on_gui](const JobControl& control) {
                control.report(1, 2);
                control.post([&events, on_gui] {
                    on_gui();
                    events.push_back(-1);
                });
                control.report(2, 2);
                return 0;
            },
            {.finished = [&](int v) { events.push_back(1000 + v); },
             .progressed = [&](std::int64_t done, std::int64_t) { events.push_back(int(done)); }});
        QTRY_VERIFY_WITH_TIMEOUT(!events.empty() && events.back() == 1000, 10000);
        QCOMPARE(events, (std::vector<int>{1, -1, 2, 1000}));
        QVERIFY(all_on_gui_thread);
    }

    void anExceptionsMessageArrives() {
        BackgroundJob job;
        QString message;
        bool finished = false;
        job.start(
            [](const JobControl&) -> int { throw std::runtime_error("layer 3 of 4 is broken"); },
            {.finished = [&](int) { finished = true; },
             .failed = [&](const QString& m) { message = m; }});
        QTRY_COMPARE_WITH_TIMEOUT(message, QStringLiteral("layer 3 of 4 is broken"), 10000);
        QVERIFY(!finished);
        QVERIFY(!job.isRunning());

        // Not a std::exception: said as an unexpected error, and nothing leaves the thread.
        message.clear();
        job.start([](const JobControl&) { throw 42; },
                  {.failed = [&](const QString& m) { message = m; }});
        QTRY_VERIFY_WITH_TIMEOUT(!message.isEmpty(), 10000);
        QCOMPARE(message, detail::unexpected_job_error());
    }

    void dropDeliversNothingMore() {
        BackgroundJob job;
        int delivered = 0;
        std::atomic<bool> started{false}, saw_stop{false};
        job.start(
            [&](const JobControl& control) {
                started = true;
                control.report(1, 2);
                while (!control.stopped())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                saw_stop = true;
                control.report(2, 2);
                return 1;
            },
            {.finished = [&](int) { ++delivered; },
             .failed = [&](const QString&) { ++delivered; },
             .cancelled = [&] { ++delivered; },
             .progressed =
                 [&](std::int64_t done, std::int64_t) {
                     if (done == 2) ++delivered;  // the first may come before the drop
                 }});
        QTRY_VERIFY_WITH_TIMEOUT(started.load(), 10000);
        job.drop();
        QVERIFY(!job.isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(saw_stop.load(), 10000);
        QVERIFY(drained());
        QCOMPARE(delivered, 0);

        // Dropped while it waited for the work before it: it begins after that one ended, its
        // stop flag already set, and nothing of it is delivered.
        Gate gate;
        std::atomic<bool> first_ended{false}, began_after_first{false}, began_stopped{false};
        job.start([&](const JobControl&) {
            gate.wait();
            first_ended = true;
            return 1;
        });
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 10000);
        job.start(
            [&](const JobControl& control) {
                began_after_first = first_ended.load();
                began_stopped = control.stopped();
                control.check();
                return 2;
            },
            {.finished = [&](int) { ++delivered; }, .cancelled = [&] { ++delivered; }});
        job.drop();
        gate.open();
        QVERIFY(drained());
        QVERIFY(began_after_first.load());
        QVERIFY(began_stopped.load());
        QCOMPARE(delivered, 0);
    }

    void destroyingTheOwnerWhileItsWorkRunsNeitherWaitsNorLetsItThrough() {
        struct Owner {
            BackgroundJob job;
            int results = 0;
        };
        int delivered = 0;
        Gate gate;
        std::atomic<bool> stopped_by_destruction{false}, ended{false};
        auto owner = std::make_unique<Owner>();
        Owner* o = owner.get();
        o->job.start(
            [&](const JobControl& control) {
                // Held until the owner's destruction sets the stop flag.
                gate.wait([&] { return control.stopped(); });
                stopped_by_destruction = control.stopped();
                control.report(1, 1);  // after the owner died: dropped like the result
                ended = true;
                return 5;
            },
            {.finished =
                 [&delivered, o](int v) {
                     ++delivered;
                     o->results += v;  // a use after free if it ever ran after the owner died
                 },
             .cancelled = [&delivered] { ++delivered; },
             .progressed = [&delivered](std::int64_t, std::int64_t) { ++delivered; }});
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 10000);
        QElapsedTimer clock;
        clock.start();
        owner.reset();
        QVERIFY2(clock.elapsed() < 1000, "the destructor waited for the work");
        QTRY_VERIFY_WITH_TIMEOUT(ended.load(), 10000);
        QVERIFY(stopped_by_destruction.load());
        QVERIFY(drained());
        QCOMPARE(delivered, 0);
    }
};

QTEST_GUILESS_MAIN(BackgroundJobTest)
#include "ui_background_job_test.moc"
