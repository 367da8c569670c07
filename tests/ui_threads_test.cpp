// The window's threads, proven on the real window: a model's pass stops at its next layer when
// Cancel is clicked or the window closes (the worker is held inside the pass by a test hook, so
// nothing depends on timing), the same configuration is computed again afterwards, and a
// window closed while an export's thread writes waits for it, then closes.
#include <QApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <thread>

#include "gate.h"
#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/render/figure_export.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/main_window.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

using test::Gate;

class ThreadsTest : public test::WindowFixture {
    Q_OBJECT

    /// The 4-layer bilingual model AttnViz ships, open and settled.
    bool openShippedModel() {
        const QString folder = shipped_model(QStringLiteral("char-zh-en-4l"));
        return !folder.isEmpty() && openModel(folder);
    }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() {
        ComputeController::setLayerHookForTesting({});
        FigureExports::setWorkerHookForTesting({});
        closeWindow();
    }

    /// Issue 40: with TZ unset (a fresh Debian 12; ctest unsets it for this test) every local-time
    /// conversion made glibc free and strdup its zone's name under a lock of its own, which
    /// ThreadSanitizer reported as a race between the GUI thread and the compute worker.  The
    /// zone is pinned when the application object is made, to the file glibc reads by default;
    /// here both threads convert times at once (under TSan, any shared write fails the test).
    void localTimeIsConvertedOnTwoThreadsAtOnce() {
        QCOMPARE(qgetenv("TZ"), QByteArray(":/etc/localtime"));
        QVERIFY(QTimeZone::systemTimeZone().isValid());
        const QString file = QCoreApplication::applicationFilePath();
        std::atomic<bool> stop{false};
        std::atomic<int> converted{0};
        int worker_offset = 0;
        std::thread worker([&] {
            while (!stop) {
                worker_offset = QFileInfo(file).lastModified().offsetFromUtc();
                ++converted;
            }
        });
        int gui_offset = 0;
        for (int i = 0; i < 2000 || converted < 100; ++i)
            gui_offset =
                QDateTime::fromSecsSinceEpoch(QFileInfo(file).lastModified().toSecsSinceEpoch())
                    .offsetFromUtc();
        stop = true;
        worker.join();
        // The same zone on both threads, and the one glibc gives a plain C call.
        QCOMPARE(worker_offset, gui_offset);
        const std::time_t t = QFileInfo(file).lastModified().toSecsSinceEpoch();
        std::tm local{};
        QVERIFY(localtime_r(&t, &local));
        QCOMPARE(gui_offset, int(local.tm_gmtoff));
    }

    void cancelStopsAModelPassAtItsNextLayer() {
        QVERIFY(openShippedModel());
        const SnapshotPtr before = w_->compute()->latest();
        std::atomic<std::int64_t> last_layer{0}, total{0};
        Gate gate;
        ComputeController::setLayerHookForTesting(
            [&](std::int64_t done, std::int64_t layers, const PassControl&) {
                last_layer = done;
                total = layers;
                if (done == 1) gate.wait();  // held after the first layer until Cancel
                return false;
            });
        QSignalSpy failed(w_->compute(), &ComputeController::failed);
        w_->document()->setTextA(QStringLiteral("the cat sat on the mat, the cat sat"));
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 30000);

        // The real button, shown while the pass runs.
        auto* cancel = child<QPushButton>("cancelComputeButton");
        QVERIFY(cancel);
        QTRY_VERIFY_WITH_TIMEOUT(cancel->isVisible(), 10000);
        QTest::mouseClick(cancel, Qt::LeftButton);
        gate.open();

        QTRY_VERIFY_WITH_TIMEOUT(!w_->compute()->isBusy(), 30000);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().front().toString(),
                 QStringLiteral("The computation was cancelled."));
        // It stopped before the second of the model's four layers; the window keeps what it
        // showed and says why.
        QCOMPARE(total.load(), std::int64_t(4));
        QCOMPARE(last_layer.load(), std::int64_t(1));
        QCOMPARE(w_->compute()->latest(), before);
        QVERIFY(!cancel->isVisible());

        // Asked again, the same configuration is computed, every layer.
        ComputeController::setLayerHookForTesting(
            [&](std::int64_t done, std::int64_t, const PassControl&) {
                last_layer = done;
                return false;
            });
        w_->compute()->request(w_->document()->computeConfig());
        QTRY_VERIFY_WITH_TIMEOUT(test::settled(*w_), 60000);
        QCOMPARE(last_layer.load(), std::int64_t(4));
        QCOMPARE(w_->compute()->latest()->config, w_->document()->computeConfig());
    }

    void closingTheWindowStopsThePassUnderWay() {
        QVERIFY(openShippedModel());
        std::atomic<std::int64_t> last_layer{0};
        std::atomic<bool> stop_seen{false};
        Gate gate;
        ComputeController::setLayerHookForTesting(
            [&](std::int64_t done, std::int64_t, const PassControl& control) {
                last_layer = done;
                // Held after the first layer until the window, closing, asks the pass to stop.
                if (done == 1) gate.wait([&] { return control.stopped(); });
                if (control.stopped()) stop_seen = true;
                return false;
            });
        w_->document()->setTextA(QStringLiteral("春眠不觉晓，处处闻啼鸟。春眠不觉晓"));
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 30000);
        w_.reset();  // returns once the pass has stopped: a hang fails by ctest's timeout
        QVERIFY(stop_seen.load());
        QCOMPARE(last_layer.load(), std::int64_t(1));
    }

    void closingDuringAnExportWaitsForItsThread() {
        SETTLE(*w_);
        const QString path = test::temp_path(QStringLiteral("figure.png"));
        Gate gate;
        FigureExports::setWorkerHookForTesting([&] { gate.wait(); });
        QSignalSpy finished(test::exports_of(*w_), &FigureExports::exportFinished);
        // The export returns at once; its thread is held while the window is asked to close.
        QVERIFY(w_->exportFigureTo(path, ExportSize{800, 500, 1.0}, w_->currentFigureOptions()));
        QTRY_VERIFY_WITH_TIMEOUT(gate.reached(), 30000);
        w_->close();
        const bool visible_after_close = w_->isVisible();
        gate.open();
        QVERIFY(finished.wait(30000));
        QVERIFY(finished.front().at(1).toBool());
        QVERIFY(visible_after_close);  // the close waited for the thread
        const QImage image(path);
        QCOMPARE(image.size(), QSize(800, 500));
        QTRY_VERIFY_WITH_TIMEOUT(!w_->isVisible(), 10000);  // then it happened
    }
};

QTEST_MAIN(ThreadsTest)
#include "ui_threads_test.moc"
