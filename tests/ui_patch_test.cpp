// The Patching tab (issue 23): texts of different lengths, the sweep against the engine's own
// patch_sweep, Cancel in the middle of a sweep, a click on a head, the exports, the tab in the
// window for a model without a causal head, and the worked example.  Issue 38: the method switch
// (attribution against models::attribution_patching, exact refining the estimate cell by cell),
// the scatter of the two and its ρ, the estimate by position of a chosen head, which method a
// model starts with, and `attnviz export --view patch --method attribution`.
#include <QAbstractItemModel>
#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cmath>
#include <memory>

#include "engine/io/npy.h"
#include "engine/models/gradient_attribution.h"
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

/// The first element of `got` farther than `tol` from `want`, said; empty when none is.
QString differs(const Tensor& got, const Tensor& want, double tol) {
    if (got.shape != want.shape) return QStringLiteral("shapes differ");
    for (std::size_t i = 0; i < got.data.size(); ++i)
        if (!(std::abs(double(got.data[i]) - double(want.data[i])) <= tol))
            return QStringLiteral("element %1: %2 against %3")
                .arg(i)
                .arg(double(got.data[i]), 0, 'g', 9)
                .arg(double(want.data[i]), 0, 'g', 9);
    return {};
}

std::vector<double> doubles(const Tensor& t) {
    return {t.data.begin(), t.data.end()};
}

/// Some pixel of the top-left 8 × 8 of `r` in `image` is far from `fill`: the hatching.
bool hatched(const QImage& image, const QRectF& r, const QColor& fill) {
    for (int y = int(r.y()) + 2; y < int(r.y()) + 10; ++y)
        for (int x = int(r.x()) + 2; x < int(r.x()) + 10; ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - fill.red()) + std::abs(c.green() - fill.green()) +
                    std::abs(c.blue() - fill.blue()) >
                40)
                return true;
        }
    return false;
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
    /// Clicks `method` and Run, as a user does, and waits for the end; false when it fails.
    static bool runBy(PatchView* v, QRadioButton* method) {
        QTest::mouseClick(method, Qt::LeftButton, {}, method->rect().center());
        if (!method->isChecked()) return false;
        QSignalSpy finished(v, &PatchView::sweepFinished);
        QTest::mouseClick(v->runButton(), Qt::LeftButton);
        return finished.wait(60000) && !finished.at(0).at(0).toBool();
    }
    /// The engine's estimate for what the view's runner was asked.
    models::AttributionPatching engineEstimate(const PatchView& v) const {
        return models::attribution_patching(*model_->model, v.runner()->request());
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

    // The method switch, clicked: Attribution fills all 16 cells at once, with the engine's
    // numbers, and L2H8 is still the top head; a click on a head splits its estimate by position.
    void attributionFillsEveryCellAtOnce() {
        auto v = shownView();
        QVERIFY(v);
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        QVERIFY(v->exactButton()->isChecked());  // attn-only-2l is small
        QSignalSpy progressed(v->runner(), &PatchRunner::progressed);
        QSignalSpy estimated(v->runner(), &PatchRunner::estimated);
        QVERIFY(runBy(v.get(), v->attributionButton()));
        QCOMPARE(v->method(), PatchMethod::Attribution);
        QCOMPARE(estimated.size(), 1);
        QCOMPARE(progressed.size(), 0);  // no exact pass
        const PatchMaps& got = *v->maps();
        QCOMPARE(got.method, PatchMethod::Attribution);
        QCOMPARE(finite_cells(got.result.fraction), 16);
        QCOMPARE(v->progressBar()->value(), 16);
        QCOMPARE(v->progressBar()->maximum(), 16);
        const models::AttributionPatching want = engineEstimate(*v);
        QString why = differs(got.result.fraction, want.fraction, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(std::abs(got.result.m_clean - want.m_clean) <= 1e-6);
        QVERIFY(std::abs(got.result.m_corrupt - want.m_corrupt) <= 1e-6);
        for (std::size_t i = 0; i < 16; ++i)
            QVERIFY(std::abs(double(got.result.m_patched.data[i]) -
                             (want.m_corrupt + double(want.estimate.data[i]))) <= 1e-5);
        // docs/guide.md: L2H8 restores 0.640 by the estimate.
        const auto top =
            std::max_element(got.result.fraction.data.begin(), got.result.fraction.data.end()) -
            got.result.fraction.data.begin();
        QCOMPARE(int(top), 1 * 8 + 7);
        QVERIFY2(std::abs(got.fraction(1, 7) - 0.640) <= 0.0005,
                 qPrintable(QString::number(got.fraction(1, 7))));
        // Measured by the estimate alone: nothing hatched, no scatter, the caption says so.
        QVERIFY(!got.showsEstimates());
        QVERIFY(v->figure().legendRect().isEmpty());
        QVERIFY(v->figure().agreementPlot().rect().isEmpty());
        QVERIFY2(v->figure().captionText().contains(QStringLiteral("method: attribution")),
                 qPrintable(v->figure().captionText()));
        QVERIFY(v->figure().describe(1, 7).contains(QStringLiteral("attribution estimates")));

        // A click on L2H8: its maps, and its estimate by position patched under them.
        QSignalSpy shown(v.get(), &PatchView::headShown);
        QTest::mouseClick(v->mapView(), Qt::LeftButton, {}, v->cellCentre(1, 7));
        QVERIFY(shown.wait(30000));
        const float* strip = v->maps()->headByPosition();
        QVERIFY(strip);
        const auto L = std::size_t(want.fraction_by_position.dim(2));
        double sum = 0.0;
        for (std::size_t t = 0; t < L; ++t) {
            QCOMPARE(strip[t], want.fraction_by_position.data[(1 * 8 + 7) * L + t]);
            sum += double(strip[t]);
        }
        QVERIFY(std::abs(sum - double(got.fraction(1, 7))) <= 1e-5);
        QApplication::processEvents();
        const QRectF s = v->figure().positionStripRect();
        QVERIFY(!s.isEmpty());
        QVERIFY(v->mapView()->rect().contains(s.toAlignedRect()));
        QVERIFY2(v->figure().notesLines().contains(QStringLiteral("position")),
                 qPrintable(v->figure().notesLines()));

        // The array export is the estimate, as the window shows it.
        QTemporaryDir dir;
        const QString npy = dir.filePath(QStringLiteral("eap.npy"));
        QVERIFY(v->exportTo(npy));
        why = differs(io::read_npy(npy.toStdString()), want.fraction, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Exact after Attribution: the estimate fills the map at once, hatched; each pass replaces
    // its heads' cells by what they measure, and the map ends equal to patch_sweep.  Then the
    // scatter has a dot a head, its ρ is the rank correlation of the two maps, and its dots
    // hover and click like the map's cells.
    void exactRefinesTheEstimateCellByCell() {
        auto v = shownView();
        QVERIFY(v);
        const auto& p = example_.patch;
        v->setInputs(p.clean, p.corrupt, p.target, p.distractor);
        QVERIFY(runBy(v.get(), v->attributionButton()));
        const models::AttributionPatching eap = engineEstimate(*v);
        const models::PatchResult exact =
            models::patch_sweep(*model_->model, v->runner()->request());
        // Each hand-over, as the map shows it: heads measured so far, and every other head
        // showing its estimate, hatched.
        std::vector<int> estimated_cells;
        QStringList wrong;
        const auto check = [&] {
            const PatchMaps& m = *v->maps();
            int estimates = 0;
            for (int l = 0; l < 2; ++l)
                for (int h = 0; h < 8; ++h) {
                    bool estimated = false;
                    const double shown = m.shown(l, h, &estimated);
                    const std::size_t at = std::size_t(l * 8 + h);
                    const double want =
                        estimated ? double(eap.fraction.data[at]) : double(exact.fraction.data[at]);
                    if (estimated != std::isnan(m.fraction(l, h)) ||
                        !(std::abs(shown - want) <= 1e-6))
                        wrong << QStringLiteral("L%1H%2: %3 against %4 (%5)")
                                     .arg(l + 1)
                                     .arg(h + 1)
                                     .arg(shown)
                                     .arg(want)
                                     .arg(estimated ? "estimate" : "exact");
                    estimates += estimated;
                }
            estimated_cells.push_back(estimates);
        };
        QImage first_pass;
        connect(v->runner(), &PatchRunner::estimated, v.get(), check);
        connect(v->runner(), &PatchRunner::progressed, v.get(), [&] {
            check();
            if (first_pass.isNull()) first_pass = v->mapView()->grab().toImage();
        });
        QVERIFY(runBy(v.get(), v->exactButton()));
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
        // 16 estimated at once, then four fewer a pass.
        QCOMPARE(estimated_cells, (std::vector<int>{16, 12, 8, 4, 0}));
        QString why;
        QVERIFY2(same_array(v->maps()->result.fraction, exact.fraction, &why), qPrintable(why));
        QVERIFY(!v->maps()->showsEstimates());
        QVERIFY(v->figure().legendRect().isEmpty());
        QVERIFY(v->figure().captionText().contains(QStringLiteral("method: exact")));
        // After the first pass the last head (L2H8) was still an estimate: hatched.
        QVERIFY(!first_pass.isNull());
        const QRectF last = v->figure().cellRect(1, 7);
        const double limit = v->maps()->scaleLimit();
        QVERIFY(hatched(first_pass, last, paint::signed_color(eap.fraction.data[15], limit)));
        QVERIFY(!hatched(v->mapView()->grab().toImage(), last,
                         paint::signed_color(exact.fraction.data[15], limit)));

        // The scatter: 16 dots, ρ the rank correlation of the two maps (0.976, docs/guide.md).
        QApplication::processEvents();
        const PatchAgreement& a = v->figure().agreement();
        QCOMPARE(int(a.heads.size()), 16);
        const double rho = test::spearman(doubles(eap.fraction), doubles(exact.fraction));
        QVERIFY2(std::abs(a.rho - rho) <= 1e-12,
                 qPrintable(QStringLiteral("%1 against %2").arg(a.rho).arg(rho)));
        QVERIFY2(std::abs(rho - 0.976) <= 0.0005, qPrintable(QString::number(rho)));
        const PatchAgreementPlot& plot = v->figure().agreementPlot();
        QVERIFY(!plot.rect().isEmpty());
        QVERIFY(v->mapView()->rect().contains(plot.rect().toAlignedRect()));
        QVERIFY(!plot.rect().intersects(v->figure().cellRect(0, 7)));
        int inside = 0;
        for (const QPoint head : a.heads)
            inside += plot.plotRect().contains(plot.dotCentre(head));
        QCOMPARE(inside, 16);
        QVERIFY(plot.titleText().contains(QStringLiteral("ρ = 0.976")));

        // Hovering L2H8's dot says the head and both values; clicking it focuses the head.
        QSignalSpy hovered(v.get(), &PatchView::hovered);
        const QPoint dot = plot.dotCentre(QPoint(7, 1)).toPoint();
        QTest::mouseMove(v->mapView(), dot);
        QTRY_VERIFY(!hovered.isEmpty());
        const QString said = hovered.last().at(0).toString();
        QVERIFY2(said.contains(QStringLiteral("L2H8")) && said.contains(QStringLiteral("0.744")) &&
                     said.contains(QStringLiteral("0.640")),
                 qPrintable(said));
        // Its cell in the map is framed as the hovered one.
        const QImage framed = v->mapView()->grab().toImage();
        const QRectF cell = v->figure().cellRect(1, 7);
        const QColor edge = framed.pixelColor(int(cell.x()) + 1, int(cell.center().y()));
        QVERIFY2(std::abs(edge.red() - paint::kHighlight.red()) <= 30 &&
                     std::abs(edge.green() - paint::kHighlight.green()) <= 30 &&
                     std::abs(edge.blue() - paint::kHighlight.blue()) <= 30,
                 qPrintable(edge.name()));
        QSignalSpy shown(v.get(), &PatchView::headShown);
        QTest::mouseClick(v->mapView(), Qt::LeftButton, {}, dot);
        QVERIFY(shown.wait(30000));
        QCOMPARE(shown.at(0).at(0).toInt(), 1);
        QCOMPARE(shown.at(0).at(1).toInt(), 7);
    }

    // Models above about 1B parameters start with Attribution: the rule, and the view applying
    // it when a model comes (the user's choice stays until then).
    void largeModelsStartWithAttribution() {
        QCOMPARE(default_patch_method(124'000'000), PatchMethod::Exact);          // GPT-2 small
        QCOMPARE(default_patch_method(1'000'000'000), PatchMethod::Exact);        // not above
        QCOMPARE(default_patch_method(1'540'000'000), PatchMethod::Attribution);  // Qwen2.5-1.5B
        QCOMPARE(default_patch_method(8'030'000'000), PatchMethod::Attribution);  // Llama-3-8B
        auto v = view();
        QVERIFY(model_->model->info().parameter_count < kAttributionFirstAbove);
        QVERIFY(v->exactButton()->isChecked());
        v->setMethod(PatchMethod::Attribution);
        v->setModel(model_);  // the same model: the choice stays
        QCOMPARE(v->method(), PatchMethod::Attribution);
        v->setModel(nullptr);
        v->setModel(model_);  // a model comes: its own default
        QCOMPARE(v->method(), PatchMethod::Exact);
    }

    // `attnviz export --view patch --method attribution`, headless: the arrays equal `attnviz
    // patch --method attribution`'s within 1e-6, the figure is written, and --method without
    // --view patch is refused without a file.
    void exportWithMethodAttribution() {
        const QString cli = qEnvironmentVariable("ATTNVIZ_CLI");
        QVERIFY2(!cli.isEmpty(), "ATTNVIZ_CLI is not set");
        QTemporaryDir dir;
        const auto& p = example_.patch;
        const QString folder = shipped_model(QStringLiteral("attn-only-2l"));
        const QStringList inputs{"--model", folder,     "--clean", p.clean,        "--corrupt",
                                 p.corrupt, "--target", p.target,  "--distractor", p.distractor};
        const auto run = [&](const QStringList& args, int* code) {
            QProcess process;
            process.start(cli, args);
            if (!process.waitForFinished(120000)) return QByteArray("timed out");
            *code = process.exitCode();
            return process.readAllStandardError();
        };
        int code = -1;
        const QString exported = dir.filePath(QStringLiteral("export.npy"));
        QByteArray err = run(
            QStringList{"export", "--view", "patch", "--method", "attribution", "--out", exported} +
                inputs,
            &code);
        QVERIFY2(code == 0, err.constData());
        const QString patched = dir.filePath(QStringLiteral("patch.npy"));
        err =
            run(QStringList{"patch", "--method", "attribution", "--out", patched} + inputs, &code);
        QVERIFY2(code == 0, err.constData());
        const Tensor a = io::read_npy(exported.toStdString());
        const Tensor b = io::read_npy(patched.toStdString());
        QCOMPARE(a.shape, (std::vector<std::int64_t>{2, 8}));
        const QString why = differs(a, b, 1e-6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QString csv = dir.filePath(QStringLiteral("export.csv"));
        err =
            run(QStringList{"export", "--view", "patch", "--method", "attribution", "--out", csv} +
                    inputs,
                &code);
        QVERIFY2(code == 0, err.constData());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = f.readAll().trimmed().split('\n');
        QCOMPARE(rows.size(), 17);
        QVERIFY(std::abs(rows[16].split(',')[2].toDouble() - double(b.data[15])) <= 1e-6);
        const QString png = dir.filePath(QStringLiteral("export.png"));
        err =
            run(QStringList{"export", "--view", "patch", "--method", "attribution", "--out", png} +
                    inputs,
                &code);
        QVERIFY2(code == 0, err.constData());
        QVERIFY(QFileInfo(png).size() > 1000);
        const QString grid = dir.filePath(QStringLiteral("grid.png"));
        err = run({"export", "--model", folder, "--text", "abc", "--view", "grid", "--method",
                   "attribution", "--out", grid},
                  &code);
        QCOMPARE(code, 2);
        QVERIFY2(err.contains("--method need --view patch") || err.contains("need --view patch"),
                 err.constData());
        QVERIFY(!QFile::exists(grid));
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
