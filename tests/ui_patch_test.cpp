// The Patching tab (issue 23): texts of different lengths, the sweep against the engine's own
// patch_sweep, Cancel in the middle of a sweep, a click on a head, the exports, the tab in the
// window for a model without a causal head, and the worked example.
#include <QAbstractItemModel>
#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cmath>
#include <memory>

#include "engine/io/npy.h"
#include "engine/models/model_folder.h"
#include "engine/models/predictions.h"
#include "test_support.h"
#include "ui/classroom/classroom_figure.h"
#include "ui/classroom/examples.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/model_store.h"
#include "ui/compute/patch_runner.h"
#include "ui/document/shipped_models.h"
#include "ui/model/patch_figure.h"
#include "ui/model/patch_view.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
// The worked example's pair (ui/classroom/examples.cpp): a random string said twice, its
// first copy changed at the place the second copy's next character is read from.
Example patch_example() {
    for (const Example& e : builtin_examples())
        if (!e.patch.clean.isEmpty()) return e;
    return {};
}

/// NaN equals NaN; finite values bit for bit.
bool same_array(const Tensor& a, const Tensor& b, QString* why) {
    if (a.shape != b.shape) {
        *why = QStringLiteral("shapes differ");
        return false;
    }
    for (std::size_t i = 0; i < a.data.size(); ++i) {
        const float x = a.data[i], y = b.data[i];
        if ((std::isnan(x) && std::isnan(y)) || std::abs(double(x) - double(y)) <= 1e-9) continue;
        *why = QStringLiteral("element %1: %2 against %3").arg(i).arg(x).arg(y);
        return false;
    }
    return true;
}

int finite_cells(const Tensor& t) {
    return int(
        std::count_if(t.data.begin(), t.data.end(), [](float v) { return std::isfinite(v); }));
}
}  // namespace

class TestPatch : public test::WindowFixture {
    Q_OBJECT
  private:
    ModelPtr model_;
    Example example_;
    std::unique_ptr<PatchView> view() {
        auto v = std::make_unique<PatchView>();
        v->resize(1200, 800);
        v->setModel(model_);
        return v;
    }
    /// view(), shown; null when it never shows.
    std::unique_ptr<PatchView> shownView() {
        auto v = view();
        v->show();
        return QTest::qWaitForWindowExposed(v.get()) ? std::move(v) : nullptr;
    }

  private slots:
    void initTestCase() {
        const QString folder = shipped_model(QStringLiteral("attn-only-2l"));
        QVERIFY2(!folder.isEmpty(), "the shipped attn-only-2l is missing");
        model_ = open_model(folder);
        example_ = patch_example();
        QVERIFY2(!example_.patch.clean.isEmpty(), "no example of patching");
    }
    void cleanup() {
        PatchRunner::setPassHookForTesting({});
        closeWindow();
    }

    void lengthsThatDifferAreSaidWithBothTokenLists() {
        auto v = view();
        v->setInputs(QStringLiteral("abcab"), QStringLiteral("abcabd"), QStringLiteral("c"),
                     QStringLiteral("d"));
        // The model's own count (it may add a first token of its own).
        const int L = int(models::encode_text(*model_, "abcab").input.ids.size());
        QVERIFY(v->messageLabel()->isVisibleTo(v.get()));
        QVERIFY2(v->messageLabel()->text().contains(QString::number(L)) &&
                     v->messageLabel()->text().contains(QString::number(L + 1)) &&
                     v->messageLabel()->text().contains(QStringLiteral("as many tokens")),
                 qPrintable(v->messageLabel()->text()));
        // Both lists, token by token; the extra one is marked as differing.
        for (const QString t : {"a", "b", "c"}) {
            QVERIFY(
                v->cleanTokensLabel()->text().contains(QStringLiteral("&nbsp;%1&nbsp;").arg(t)));
            QVERIFY(
                v->corruptTokensLabel()->text().contains(QStringLiteral("&nbsp;%1&nbsp;").arg(t)));
        }
        QCOMPARE(v->cleanTokensLabel()->text().count(QStringLiteral("<span")), L);
        QCOMPARE(v->corruptTokensLabel()->text().count(QStringLiteral("<span")), L + 1);
        QCOMPARE(v->corruptTokensLabel()->text().count(QStringLiteral("#f7c9a8")), 1);
        QVERIFY(!v->runButton()->isEnabled());
        QVERIFY(!v->run());
        // As many tokens: the message goes and Run is offered.
        v->corruptEdit()->setText(QStringLiteral("abdab"));
        QVERIFY(!v->messageLabel()->isVisibleTo(v.get()));
        QVERIFY(v->runButton()->isEnabled());
        QCOMPARE(v->corruptTokensLabel()->text().count(QStringLiteral("#f7c9a8")), 1);
    }

    void tokensComeFromTheVocabularyWithTheirIds() {
        auto v = view();
        QVERIFY(v->targetCompleter());
        QCOMPARE(v->targetCompleter()->model()->rowCount(), int(model_->tokenizer.vocab_size()));
        v->setInputs(QStringLiteral("abcab"), QStringLiteral("abdab"), QStringLiteral("c"),
                     QStringLiteral("cd"));
        QVERIFY(!v->runButton()->isEnabled());
        QVERIFY(v->messageLabel()->text().contains(QStringLiteral("not one token")));
        v->distractorEdit()->setText(QStringLiteral("d"));
        QVERIFY(v->runButton()->isEnabled());
        const QString id = QString::number(*model_->tokenizer.token_to_id("d"));
        QVERIFY(v->findChildren<QLabel*>().size() > 0);
        bool shown = false;
        for (QLabel* l : v->findChildren<QLabel*>())
            shown = shown || l->text() == QStringLiteral("id %1").arg(id);
        QVERIFY2(shown, "the distractor's id is not shown");
    }

    void theSweepFillsTheMapWithTheEnginesFractions() {
        auto v = shownView();
        QVERIFY(v);
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        QSignalSpy progressed(v->runner(), &PatchRunner::progressed);
        QSignalSpy finished(v.get(), &PatchView::sweepFinished);
        // The map as it is at each hand-over: it fills in pass by pass.
        std::vector<int> filled;
        connect(v->runner(), &PatchRunner::progressed, v.get(),
                [&] { filled.push_back(finite_cells(v->maps()->result.fraction)); });
        QVERIFY(v->run());
        QVERIFY(!v->runButton()->isEnabled());
        QVERIFY(v->cancelButton()->isEnabled());
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const int heads = 2 * 8;
        QCOMPARE(progressed.size(), int(heads / PatchRunner::kHeadsPerPass));
        QCOMPARE(filled.front(), int(PatchRunner::kHeadsPerPass));
        QCOMPARE(filled.back(), heads);
        QVERIFY(std::is_sorted(filled.begin(), filled.end()));
        QCOMPARE(v->progressBar()->value(), heads);
        QCOMPARE(v->progressBar()->maximum(), heads);

        const models::PatchResult want =
            models::patch_sweep(*model_->model, v->runner()->request());
        const PatchMaps& got = *v->maps();
        QString why;
        QVERIFY2(same_array(got.result.fraction, want.fraction, &why), qPrintable(why));
        QCOMPARE(got.result.m_clean, want.m_clean);
        QCOMPARE(got.result.m_corrupt, want.m_corrupt);
        QCOMPARE(finite_cells(got.result.fraction), heads);

        // Each cell is painted in the diverging colour of its fraction (a corner, clear of the
        // value printed in its middle).
        QApplication::processEvents();
        const QImage image = v->mapView()->grab().toImage();
        const double limit = got.scaleLimit();
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 8; ++h) {
                const QRectF r = v->figure().cellRect(l, h);
                const QColor want_colour = paint::signed_color(got.fraction(l, h), limit);
                const QColor pixel = image.pixelColor(QPoint(int(r.x()) + 4, int(r.y()) + 4));
                QVERIFY2(std::abs(pixel.red() - want_colour.red()) <= 2 &&
                             std::abs(pixel.green() - want_colour.green()) <= 2 &&
                             std::abs(pixel.blue() - want_colour.blue()) <= 2,
                         qPrintable(QStringLiteral("layer %1 head %2: %3 against %4")
                                        .arg(l + 1)
                                        .arg(h + 1)
                                        .arg(pixel.name(), want_colour.name())));
            }
    }

    void cancelStopsTheSweepAndLeavesTheRestNaN() {
        auto v = shownView();
        QVERIFY(v);
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        // The sweep's thread waits after its first pass until the test has clicked Cancel.
        std::atomic<int> at_pass{0};
        std::atomic<bool> release{false};
        PatchRunner::setPassHookForTesting([&](std::int64_t done, std::int64_t) {
            if (done != PatchRunner::kHeadsPerPass) return;
            at_pass = int(done);
            while (!release)
                QThread::usleep(200);
        });
        QSignalSpy finished(v.get(), &PatchView::sweepFinished);
        QVERIFY(v->run());
        QTRY_COMPARE_WITH_TIMEOUT(at_pass.load(), int(PatchRunner::kHeadsPerPass), 60000);
        QVERIFY(v->cancelButton()->isEnabled());
        QTest::mouseClick(v->cancelButton(), Qt::LeftButton);
        release = true;
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), true);
        const PatchMaps& got = *v->maps();
        QVERIFY(got.stopped);
        QCOMPARE(got.done, int(PatchRunner::kHeadsPerPass));
        QCOMPARE(finite_cells(got.result.fraction), int(PatchRunner::kHeadsPerPass));
        QCOMPARE(finite_cells(got.result.m_patched), int(PatchRunner::kHeadsPerPass));
        // The heads run are the first pass's, as the whole sweep gives them.
        const models::PatchResult whole =
            models::patch_sweep(*model_->model, v->runner()->request());
        for (std::size_t i = 0; i < whole.fraction.data.size(); ++i)
            if (std::isfinite(got.result.fraction.data[i]))
                QCOMPARE(got.result.fraction.data[i], whole.fraction.data[i]);
        QVERIFY(v->runButton()->isEnabled());
        QVERIFY(!v->cancelButton()->isEnabled());
        QVERIFY(v->figure().describe(1, 7).contains(QStringLiteral("not run")));
    }

    void aClickOnAHeadShowsItsAttentionOnBothTexts() {
        auto v = shownView();
        QVERIFY(v);
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        QSignalSpy finished(v.get(), &PatchView::sweepFinished);
        QVERIFY(v->run());
        QVERIFY(finished.wait(60000));
        QSignalSpy shown(v.get(), &PatchView::headShown);
        const QPoint at = v->cellCentre(1, 3);
        QVERIFY(!at.isNull());
        QTest::mouseClick(v->mapView(), Qt::LeftButton, {}, at);
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.at(0).at(0).toInt(), 1);
        QCOMPARE(shown.at(0).at(1).toInt(), 3);
        const PatchHeadMaps& h = v->maps()->head;
        for (const auto& [text, map] : {std::pair{p.clean, &h.clean}, {p.corrupt, &h.corrupt}}) {
            const models::EncodedText e = models::encode_text(*model_, text.toStdString());
            models::CollectingSink sink;
            models::ModelForwardOptions o;
            o.num_threads = std::max(1, QThread::idealThreadCount());
            model_->model->forward(e.input, o, sink);
            const Tensor& w = sink.results[1].weights;  // [1, H, L, L]
            const auto L = std::size_t(w.shape[2]);
            QCOMPARE(map->numel(), L * L);
            const auto c = test::compare_arrays(map->ptr(), w.ptr() + 3 * L * L, L * L, 1e-6, 0.0);
            QVERIFY2(c.ok, c.message.c_str());
        }
        QVERIFY(!v->figure().cellRect(1, 3).isEmpty());
    }

    void exportsWriteTheArrayAndTheFigure() {
        auto v = view();
        QTemporaryDir dir;
        QSignalSpy failed(v.get(), &PatchView::failed);
        QVERIFY(!v->exportTo(dir.filePath(QStringLiteral("early.npy"))));  // nothing run yet
        QCOMPARE(failed.size(), 1);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("early.npy"))));
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        QSignalSpy finished(v.get(), &PatchView::sweepFinished);
        QVERIFY(v->run());
        QVERIFY(finished.wait(60000));
        const QString npy = dir.filePath(QStringLiteral("patch.npy"));
        QVERIFY(v->exportTo(npy));
        QString why;
        QVERIFY2(same_array(io::read_npy(npy.toStdString()), v->maps()->result.fraction, &why),
                 qPrintable(why));
        const QString csv = dir.filePath(QStringLiteral("patch.csv"));
        QVERIFY(v->exportTo(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 16);
        QCOMPARE(lines[0], QByteArray("layer,head,fraction,m_patched,m_clean,m_corrupt"));
        const QList<QByteArray> row = lines[1 + 8 + 2].split(',');  // layer 2, head 3
        QCOMPARE(row[0].toInt(), 2);
        QCOMPARE(row[1].toInt(), 3);
        QCOMPARE(row[2].toFloat(), v->maps()->fraction(1, 2));
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString path = dir.filePath(QStringLiteral("patch.") + QLatin1String(suffix));
            QVERIFY(v->exportTo(path));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        QCOMPARE(failed.size(), 1);
        QVERIFY(!v->exportTo(dir.filePath(QStringLiteral("patch.txt"))));
        QCOMPARE(failed.size(), 2);
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("patch.txt"))));
    }

    void aModelWithoutACausalHeadIsExplained() {
        auto v = std::make_unique<PatchView>();
        const ModelPtr bert =
            open_model(QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/bert_gamma_beta"));
        v->setModel(bert);
        const QLabel* placeholder = v->findChild<QLabel*>(QStringLiteral("patchPlaceholder"));
        QVERIFY(placeholder && placeholder->isVisibleTo(v.get()));
        QVERIFY2(placeholder->text().contains(QStringLiteral("causal")),
                 qPrintable(placeholder->text()));
        QVERIFY(!v->cleanEdit()->isVisibleTo(v.get()));
        v->setModel(nullptr);
        QVERIFY(placeholder->text().contains(QStringLiteral("attn-only-2l")));
    }

    void theExampleOpensTheTabAndOneHeadStandsOut() {
        openWindow();
        if (QTest::currentTestFailed()) return;
        PatchView* v = w_->views()->patchView();
        QSignalSpy finished(v, &PatchView::sweepFinished);
        QVERIFY(w_->loadExample(example_.id));
        QCOMPARE(w_->views()->currentTab(), ViewTabs::PatchTab);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        const PatchMaps& m = *v->maps();
        QCOMPARE(m.clean_text, example_.patch.clean);
        // One head restores most of the metric; every other head little.
        std::vector<float> f = m.result.fraction.data;
        std::sort(f.begin(), f.end(), std::greater<>());
        QVERIFY2(f[0] >= 0.5f, qPrintable(QString::number(f[0])));
        QVERIFY2(f[1] <= 0.25f, qPrintable(QString::number(f[1])));
        // The window's Copy Figure copies this tab's figure, not the heatmaps.
        QApplication::clipboard()->clear();
        test::exports_of(*w_)->copyFigure();
        const QImage copied = QApplication::clipboard()->image();
        QVERIFY(!copied.isNull());
        PatchFigure figure;
        figure.setMaps(&m);
        FigureOptions options;
        options.font_px = 14;  // as every export of the tab draws it
        figure.setOptions(options);
        figure.layout(QSize(1600, 1000));
        QCOMPARE(copied.width(), 2 * figure.usedWidth());
    }
};

QTEST_MAIN(TestPatch)
#include "ui_patch_test.moc"
