// The Compare view, driven through the real window: the presets (causal mask off vs on,
// 4 vs 8 heads, dropout off vs on with the same seed) against configurations computed
// independently here with compute_snapshot, the head chooser, hover, the editor of B,
// presentation mode, B computed only while the view is shown, sessions that keep the
// comparison (and version 1 sessions that have none), exports from the window, and
// `attnviz export --view compare` with good and bad options.
#include <QComboBox>
#include <QFile>
#include <QImageReader>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QThread>
#include <QToolButton>

#include <cmath>
#include <memory>

#include "test_support.h"
#include "ui/classroom/compare_figure.h"
#include "ui/classroom/compare_model.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/render/figure_export.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
const QString kSentence = QStringLiteral("The cat sat on the mat because it was tired");

/// The mean over heads of item 0, [L * S], straight from a snapshot.
std::vector<float> mean_of(const AttentionSnapshot& s) {
    std::vector<float> out;
    for (int i = 0; i < s.target_len; ++i)
        for (int j = 0; j < s.source_len; ++j)
            out.push_back(s.mean_weight(0, i, j));
    return out;
}

std::vector<float> head_of(const AttentionSnapshot& s, int h) {
    std::vector<float> out;
    for (int i = 0; i < s.target_len; ++i)
        for (int j = 0; j < s.source_len; ++j)
            out.push_back(s.weight(0, h, i, j));
    return out;
}

std::vector<float> minus(const std::vector<float>& b, const std::vector<float>& a) {
    std::vector<float> d(a.size());
    for (std::size_t k = 0; k < a.size(); ++k)
        d[k] = b[k] - a[k];
    return d;
}

int dark_pixels(const QImage& image) {
    int dark = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            dark += qGray(image.pixel(x, y)) < 128;
    return dark;
}
}  // namespace

class CompareTest : public test::WindowFixture {
    Q_OBJECT

  private:
    CompareView* view() { return w_->views()->compare(); }
    AttentionDocument* doc() { return w_->document(); }

    /// Waits until the view shows B for the window's current A.
    bool compared() {
        return QTest::qWaitFor(
            [&] {
                if (!test::settled(*w_)) return false;
                // A for the document as it is now (a change may not have reached the worker).
                const SnapshotPtr a = w_->compute()->latest();
                if (a->config != doc()->computeConfig()) return false;
                const SnapshotPtr b = view()->compared();
                return b && view()->snapshot() == a &&
                       b->config == compared_config(a->config, doc()->compare().changes) &&
                       view()->figure()->model().rows > 0;
            },
            30000);
    }

    void showCompareTab() { w_->views()->setCurrentTab(ViewTabs::CompareTab); }

  private slots:
    void init() {
        openWindow();
        if (QTest::currentTestFailed()) return;
        doc()->setTextA(kSentence);
        doc()->setEmbedDim(32);
        SETTLE(*w_);
    }
    void cleanup() { closeWindow(); }

    // --- the presets against independent computations ------------------------------------

    void causalOffVsOnMatchesIndependentComputations() {
        doc()->setCausal(true);  // the preset must take A back to no mask
        SETTLE(*w_);
        showCompareTab();
        QTest::mouseClick(view()->presetButton(ComparePreset::Causal), Qt::LeftButton);
        QVERIFY(!doc()->causal());
        QVERIFY(doc()->compare().changes.causal.value_or(false));
        QVERIFY(compared());
        // B (A with the causal mask) is the A computed before the preset: reused, not redone.
        QVERIFY(view()->compared()->config.causal);

        // Independently: both configurations through compute_snapshot.
        ComputeConfig a_config = doc()->computeConfig();
        ComputeConfig b_config = a_config;
        b_config.causal = true;
        const SnapshotPtr a = compute_snapshot(a_config, 1);
        const SnapshotPtr b = compute_snapshot(b_config, 2);
        const SnapshotPtr shown_b = view()->compared();
        const int L = b->target_len, S = b->source_len, H = b->heads;
        QCOMPARE(L, 10);
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < L; ++i)
                for (int j = i + 1; j < S; ++j) {
                    QVERIFY2(shown_b->weight(0, h, i, j) == 0.0f,
                             qPrintable(QStringLiteral("B head %1 [%2, %3] = %4 above the diagonal")
                                            .arg(h)
                                            .arg(i)
                                            .arg(j)
                                            .arg(shown_b->weight(0, h, i, j))));
                    QVERIFY(shown_b->is_masked(0, i, j));
                }
        // The figure's three matrices: A, B and B − A of the mean.
        const CompareModel& m = view()->figure()->model();
        QCOMPARE(m.head, -1);
        QCOMPARE(m.rows, L);
        QCOMPARE(m.cols, S);
        const std::vector<float> expect_diff = minus(mean_of(*b), mean_of(*a));
        ATTNVIZ_COMPARE_ARRAYS(m.a.data(), mean_of(*a).data(), m.a.size(), 1e-6);
        ATTNVIZ_COMPARE_ARRAYS(m.b.data(), mean_of(*b).data(), m.b.size(), 1e-6);
        ATTNVIZ_COMPARE_ARRAYS(m.diff.data(), expect_diff.data(), expect_diff.size(), 1e-6);
        // The last query sees every key either way: its row does not change.
        for (int j = 0; j < S; ++j)
            ATTNVIZ_FUZZY(m.diff[m.index(L - 1, j)], 0.0, 1e-6);
        // The summary states the largest and the mean change.
        double max_abs = 0.0, sum = 0.0;
        for (float d : expect_diff) {
            max_abs = std::max(max_abs, double(std::abs(d)));
            sum += std::abs(d);
        }
        ATTNVIZ_FUZZY(m.max_abs_diff, max_abs, 1e-6);
        ATTNVIZ_FUZZY(m.mean_abs_diff, sum / double(expect_diff.size()), 1e-6);
        QVERIFY(view()->figure()->summaryText().contains(QString::number(max_abs, 'f', 3)));
        // The titles say what A and B are.
        QVERIFY(view()
                    ->figure()
                    ->panelTitle(CompareFigure::PanelA)
                    .contains(QStringLiteral("no causal mask")));
        QVERIFY(view()
                    ->figure()
                    ->panelTitle(CompareFigure::PanelB)
                    .contains(QStringLiteral("causal mask")));
        QVERIFY(view()->figure()->titleText().contains(QStringLiteral("vs")));

        // Head 2 of both.
        doc()->setCompareHead(1);
        QTRY_COMPARE(view()->figure()->model().head, 1);
        const CompareModel& m2 = view()->figure()->model();
        const std::vector<float> d2 = minus(head_of(*b, 1), head_of(*a, 1));
        ATTNVIZ_COMPARE_ARRAYS(m2.diff.data(), d2.data(), d2.size(), 1e-6);
    }

    void hoverShowsACellOfAllThree() {
        showCompareTab();
        view()->presetButton(ComparePreset::Causal)->click();
        QVERIFY(compared());
        CompareFigure* f = view()->figure();
        const QRectF cell = f->cellRect(CompareFigure::PanelDiff, 1, 3);
        QVERIFY(!cell.isEmpty());
        QTest::mouseMove(view()->canvas(), cell.center().toPoint());
        QTRY_COMPARE(f->hover().row, 1);
        QCOMPARE(f->hover().col, 3);
        const CompareModel& m = f->model();
        const std::size_t k = m.index(1, 3);
        const QString text = view()->hoverText();
        QVERIFY2(text.contains(QStringLiteral("cat")) && text.contains(QStringLiteral("on")),
                 qPrintable(text));
        // A's weight, B's (0: masked) and the difference, to three decimals.
        QVERIFY2(text.contains(QString::number(double(m.a[k]), 'f', 3)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("0.000")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("−") + QString::number(double(m.a[k]), 'f', 3)),
                 qPrintable(text));
        // The same cell, hovered in panel A, is the same hit.
        view()->hoverAt(f->cellRect(CompareFigure::PanelA, 2, 2).center());
        QCOMPARE(f->hover().row, 2);
        QCOMPARE(f->hover().col, 2);
        QCOMPARE(f->hover().panel, int(CompareFigure::PanelA));
    }

    void fourVsEightHeadsComparesTheMeans() {
        showCompareTab();
        doc()->setNumHeads(2);
        QTest::mouseClick(view()->presetButton(ComparePreset::Heads), Qt::LeftButton);
        QCOMPARE(doc()->numHeads(), 4);
        QCOMPARE(doc()->compare().changes.num_heads.value_or(0), 8);
        QVERIFY(compared());
        QCOMPARE(view()->snapshot()->heads, 4);
        QCOMPARE(view()->compared()->heads, 8);

        ComputeConfig a_config = doc()->computeConfig();
        ComputeConfig b_config = a_config;
        b_config.num_heads = 8;
        const SnapshotPtr a = compute_snapshot(a_config, 1);
        const SnapshotPtr b = compute_snapshot(b_config, 2);
        const CompareModel& m = view()->figure()->model();
        QCOMPARE(m.head, -1);
        const std::vector<float> expect = minus(mean_of(*b), mean_of(*a));
        ATTNVIZ_COMPARE_ARRAYS(m.diff.data(), expect.data(), expect.size(), 1e-6);
        // The head counts differ, so the means do too (the same projections, split otherwise).
        QVERIFY(m.max_abs_diff > 1e-4f);
        for (std::size_t k = 0; k < expect.size(); ++k)
            QVERIFY(std::isfinite(m.diff[k]));

        // The chooser: the mean, heads 1-4 of both, and 5-8 marked as B's only.
        QComboBox* heads = view()->headCombo();
        QCOMPARE(heads->count(), 9);
        QVERIFY(heads->itemText(6).contains(QStringLiteral("only in B")));
        QVERIFY(!heads->itemText(4).contains(QStringLiteral("only")));
        heads->setCurrentIndex(6);
        emit heads->activated(6);
        QCOMPARE(doc()->compare().head, 5);
        QTRY_VERIFY(view()->figure()->model().empty());
        QVERIFY2(view()->figure()->message().contains(QStringLiteral("only in B")),
                 qPrintable(view()->figure()->message()));
        QVERIFY(view()->figure()->message().contains(QStringLiteral("A has 4 heads")));
        // Stepping through heads visits the mean and the heads both have.
        doc()->setCompareHead(-1);
        view()->stepHead(1);
        QCOMPARE(doc()->compare().head, 0);
        view()->stepHead(-1);
        QCOMPARE(doc()->compare().head, -1);
        view()->stepHead(-1);
        QCOMPARE(doc()->compare().head, 3);
        // The window's Page Down steps the comparison's head while the view is shown.
        w_->setPresentation(true);
        QTest::keyClick(w_.get(), Qt::Key_PageDown);
        QTRY_COMPARE(doc()->compare().head, -1);
        w_->setPresentation(false);
    }

    void dropoutOffVsOnWithTheSameSeedReproduces() {
        showCompareTab();
        doc()->setDropout(0.25);
        doc()->setDropoutSeed(7);
        doc()->setTraining(true);
        view()->presetButton(ComparePreset::Dropout)->click();
        QVERIFY(!doc()->training());
        QCOMPARE(doc()->dropoutSeed(), 7);
        QVERIFY(compared());
        const SnapshotPtr shown_a = view()->snapshot();
        const SnapshotPtr shown_b = view()->compared();
        QVERIFY(shown_b->config.training);
        QCOMPARE(shown_b->config.dropout_seed, 7);
        ATTNVIZ_FUZZY(shown_b->config.dropout, 0.25, 1e-12);

        // The same seed: computing B again gives exactly the same sample.
        ComputeConfig b_config = doc()->computeConfig();
        b_config.training = true;
        const SnapshotPtr b1 = compute_snapshot(b_config, 1);
        const SnapshotPtr b2 = compute_snapshot(b_config, 2);
        ATTNVIZ_COMPARE_TENSORS(b1->weights, b2->weights, 0.0);
        ATTNVIZ_COMPARE_TENSORS(shown_b->weights, b1->weights, 0.0);
        // Dropout on the weights: each of B's is 0 (dropped) or A's / (1 − p) (kept).
        int dropped = 0, kept = 0;
        for (int h = 0; h < shown_b->heads; ++h)
            for (int i = 0; i < shown_b->target_len; ++i)
                for (int j = 0; j < shown_b->source_len; ++j) {
                    const float wa = shown_a->weight(0, h, i, j);
                    const float wb = shown_b->weight(0, h, i, j);
                    if (wb == 0.0f) {
                        ++dropped;
                    } else {
                        ++kept;
                        ATTNVIZ_FUZZY(wb, wa / 0.75, 1e-5);
                    }
                }
        QVERIFY2(dropped > 0 && kept > dropped,
                 qPrintable(QStringLiteral("%1 dropped, %2 kept").arg(dropped).arg(kept)));
        // The preset compares one head, where a dropped weight shows as −A.
        QCOMPARE(view()->figure()->model().head, 0);
        const CompareModel& m = view()->figure()->model();
        for (std::size_t k = 0; k < m.diff.size(); ++k)
            if (m.b[k] == 0.0f) ATTNVIZ_FUZZY(m.diff[k], -m.a[k], 1e-7);
    }

    // --- the editor, problems, laziness, presentation -------------------------------------

    void editorWritesTheChangesOfB() {
        showCompareTab();
        QVERIFY(!view()->editor()->isVisible());  // closed at first: the presets come first
        QTest::keyClick(w_.get(), Qt::Key_D, Qt::AltModifier);  // "E&dit B"
        QTRY_VERIFY(view()->editor()->isVisible());
        QComboBox* heads = view()->headsCombo();
        const int eight = heads->findData(8);
        QVERIFY(eight > 0);
        heads->setCurrentIndex(eight);
        emit heads->activated(eight);
        QComboBox* scoring = view()->scoringCombo();
        const int additive = scoring->findData(int(Scoring::Additive));
        scoring->setCurrentIndex(additive);
        emit scoring->activated(additive);
        CompareChanges expect;
        expect.num_heads = 8;
        expect.scoring = Scoring::Additive;
        QVERIFY(doc()->compare().changes == expect);
        QVERIFY(compared());
        QCOMPARE(view()->compared()->config.scoring, Scoring::Additive);
        QCOMPARE(view()->compared()->heads, 8);
        // "Same as A" states A's value, and follows it.
        QVERIFY(view()->causalCombo()->itemText(0).contains(QStringLiteral("off")));
        doc()->setCausal(true);
        QTRY_VERIFY(view()->causalCombo()->itemText(0).contains(QStringLiteral("on")));
        // B follows A where it does not change it.
        QVERIFY(compared());
        QVERIFY(view()->compared()->config.causal);
        view()->findChild<QPushButton*>(QStringLiteral("compareResetButton"))->click();
        QVERIFY(doc()->compare().changes.empty());
        QTRY_VERIFY(view()->statusLabel()->text().contains(QStringLiteral("same as A")));
    }

    void headCountThatNoLongerDividesIsReported() {
        showCompareTab();
        CompareChanges ch;
        ch.num_heads = 8;
        doc()->setCompareChanges(ch);
        QVERIFY(compared());
        doc()->setEmbedDim(12);  // 8 heads do not divide 12
        SETTLE(*w_);
        QTRY_VERIFY(!view()->problem().isEmpty());
        QVERIFY(view()->problem().contains(QStringLiteral("12")));
        QVERIFY(view()->statusLabel()->isVisible());
        QVERIFY(view()->figure()->model().empty());
        QCOMPARE(view()->figure()->message(), view()->problem());
        QVERIFY(!view()->compared());
        // An export refuses with the same message, and writes nothing.
        const QString out = test::temp_path(QStringLiteral("refused.png"));
        QFile::remove(out);
        FigureOptions o = w_->currentFigureOptions();
        QCOMPARE(o.kind, FigureKind::Compare);
        QVERIFY(!test::export_figure(*w_, out, ExportSize{800, 500, 1.0}, o));
        QVERIFY(w_->lastError().contains(QStringLiteral("12")));
        QVERIFY(!QFile::exists(out));
        if (w_->errorDialog()) w_->errorDialog()->close();
    }

    void bIsComputedOnlyWhenShown() {
        // The grid is shown: changing B computes nothing.
        // The view decides on B when the document says B changed (compareChanged, delivered
        // to it before this spy) or when it is given A, which a hidden tab is only once shown
        // (ViewTabs::catchUp): so "no worker" is the view's decision, not a late worker.
        SETTLE(*w_);
        QVERIFY(w_->views()->isStale(ViewTabs::CompareTab));
        QSignalSpy changed(doc(), &AttentionDocument::compareChanged);
        CompareChanges ch;
        ch.causal = true;
        doc()->setCompareChanges(ch);
        QCOMPARE(changed.size(), 1);
        SETTLE(*w_);
        QVERIFY(w_->views()->isStale(ViewTabs::CompareTab));  // A after the change waits too
        QVERIFY(!view()->compute());
        QVERIFY(!view()->isComputing());
        QVERIFY(!view()->compared());
        // An export of the comparison from here computes B for it, and draws it.
        FigureOptions o = doc()->figureOptions();
        o.kind = FigureKind::Compare;
        o.view = FigureView::Mean;
        const QString out = test::temp_path(QStringLiteral("hidden.png"));
        QVERIFY2(test::export_figure(*w_, out, ExportSize{900, 500, 1.0}, o),
                 qPrintable(w_->lastError()));
        QVERIFY(QFile::exists(out));
        QVERIFY(!view()->compute());
        // Shown: now it has A, and B is computed.
        showCompareTab();
        QCOMPARE(view()->snapshot(), snap());
        QVERIFY(compared());
        QVERIFY(view()->compute());
        QVERIFY(view()->compute()->finishedGeneration() >= 1);  // on its worker thread
    }

    void windowExportsTheComparison() {
        showCompareTab();
        view()->presetButton(ComparePreset::Causal)->click();
        QVERIFY(compared());
        const FigureOptions o = w_->currentFigureOptions();
        QCOMPARE(o.kind, FigureKind::Compare);
        QCOMPARE(o.view, FigureView::Mean);
        for (const char* name : {"window.png", "window.svg", "window.pdf"}) {
            const QString out = test::temp_path(QLatin1String(name));
            QVERIFY2(test::export_figure(*w_, out, ExportSize{1200, 700, 1.0}, o),
                     qPrintable(w_->lastError()));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QVERIFY(f.size() > 5000);
        }
        // The file is the figure on screen: the same renderer, the same pair.
        const QImage image = render_figure_image(*view()->snapshot(), o, QSize(1200, 700), 1.0,
                                                 view()->compared().get());
        QCOMPARE(image.size(), QSize(1200, 700));
        QVERIFY(dark_pixels(image) > 500);
        // Without B a comparison is refused, not drawn half.
        bool refused = false;
        try {
            (void)render_figure_image(*view()->snapshot(), o, QSize(400, 300), 1.0, nullptr);
        } catch (const UsageError&) {
            refused = true;
        }
        QVERIFY(refused);
    }

    void presentationUsesLargeLabelsAndHidesTheEditor() {
        showCompareTab();
        view()->findChild<QToolButton*>(QStringLiteral("compareEditToggle"))->click();
        QTRY_VERIFY(view()->editor()->isVisible());
        view()->presetButton(ComparePreset::Causal)->click();
        w_->setPresentation(true);
        QVERIFY(compared());
        const int px = w_->presentationPixelSize();
        QVERIFY(px * 72.0 / w_->logicalDpiY() >= 24.0 - 1e-9);
        QTRY_VERIFY(view()->figure()->labelPixelSize() >= px);
        QVERIFY(view()->figure()->labelPixelSize() >= 24);
        QVERIFY(!view()->editor()->isVisible());
        QVERIFY(view()->presetButton(ComparePreset::Causal)->isVisible());
        QVERIFY(view()->headCombo()->font().pixelSize() >= px);
        w_->setPresentation(false);
        QTRY_VERIFY(view()->editor()->isVisible());
        QVERIFY(view()->figure()->labelPixelSize() < px);
    }

    // --- sessions -------------------------------------------------------------------------

    void sessionKeepsTheComparison() {
        CompareChanges ch;
        ch.causal = true;
        ch.num_heads = 8;
        ch.training = true;
        ch.dropout = 0.2;
        ch.scoring = Scoring::Additive;
        ch.masked_rows = MaskedRowPolicy::Uniform;
        ch.bias = false;
        ch.positional_encoding = false;
        ch.weight_seed = 5;
        doc()->setCompareChanges(ch);
        doc()->setCompareHead(2);
        showCompareTab();
        const QString path = test::temp_path(QStringLiteral("compare.attnviz"));
        QVERIFY(w_->saveSessionTo(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(root.value(QStringLiteral("version")).toInt(), kSessionVersion);
        QVERIFY(
            root.value(QStringLiteral("document")).toObject().contains(QStringLiteral("compare")));

        w_->views()->setCurrentTab(ViewTabs::GridTab);
        doc()->resetToDefaults();
        QVERIFY(doc()->compare().changes.empty());
        QVERIFY(w_->openSession(path));
        QVERIFY(doc()->compare().changes == ch);
        QCOMPARE(doc()->compare().head, 2);
        QCOMPARE(w_->views()->currentTab(), ViewTabs::CompareTab);
        QVERIFY(compared());
        QCOMPARE(view()->compared()->config.weight_seed, 5);
        QCOMPARE(view()->figure()->model().head, 2);
    }

    void versionOneSessionsLoadWithoutAComparison() {
        const QString path = test::temp_path(QStringLiteral("v1.attnviz"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "attnviz-session", "version": 1, "document":
                  {"input": {"text_a": "one two three"}, "layer": {"num_heads": 2}}})");
        f.close();
        CompareChanges ch;
        ch.causal = true;
        doc()->setCompareChanges(ch);
        QVERIFY2(w_->openSession(path), qPrintable(w_->lastError()));
        QCOMPARE(doc()->textA(), QStringLiteral("one two three"));
        QVERIFY(doc()->compare().changes.empty());
        QCOMPARE(doc()->compare().head, -1);
    }

    void badComparisonInASessionIsRefusedAndChangesNothing_data() {
        QTest::addColumn<QByteArray>("compare");
        QTest::addColumn<QString>("message");
        QTest::newRow("heads not a number")
            << QByteArray(R"({"changes": {"num_heads": "eight"}})") << QStringLiteral("num_heads");
        QTest::newRow("heads out of range")
            << QByteArray(R"({"changes": {"num_heads": 65}})") << QStringLiteral("num_heads");
        QTest::newRow("causal not a flag")
            << QByteArray(R"({"changes": {"causal": "yes"}})") << QStringLiteral("causal");
        QTest::newRow("unknown scoring")
            << QByteArray(R"({"changes": {"scoring": "cosine"}})") << QStringLiteral("cosine");
        QTest::newRow("dropout too high")
            << QByteArray(R"({"changes": {"dropout": 1.5}})") << QStringLiteral("dropout");
        QTest::newRow("head below -1") << QByteArray(R"({"head": -2})") << QStringLiteral("head");
        QTest::newRow("not an object") << QByteArray(R"([1, 2])") << QStringLiteral("compare");
    }
    void badComparisonInASessionIsRefusedAndChangesNothing() {
        QFETCH(QByteArray, compare);
        QFETCH(QString, message);
        const QString path = test::temp_path(QStringLiteral("bad.attnviz"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "attnviz-session", "version": 2, "document":
                  {"input": {"text_a": "one two"}, "compare": )" +
                compare + "}}");
        f.close();
        AttentionDocument d;
        d.setTextA(QStringLiteral("kept"));
        QString error;
        QVERIFY(!load_session(path, &d, nullptr, &error));
        QVERIFY2(error.contains(message), qPrintable(error));
        QCOMPARE(d.textA(), QStringLiteral("kept"));
    }

    // --- attnviz export --view compare ----------------------------------------------------

    void exportCommandWritesTheComparison_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("file");
        QTest::newRow("causal png") << QStringList{"--compare", "causal"} << "causal.png";
        QTest::newRow("heads svg") << QStringList{"--compare", "heads"} << "heads.svg";
        QTest::newRow("dropout pdf")
            << QStringList{"--compare", "dropout", "--dropout", "0.3"} << "dropout.pdf";
        QTest::newRow("b options, head 2 png")
            << QStringList{"--view", "compare:2", "--b-causal", "on", "--b-scoring", "additive"}
            << "options.png";
        QTest::newRow("preset and b option pdf")
            << QStringList{"--compare", "heads", "--b-seed", "3"} << "mixed.pdf";
    }
    void exportCommandWritesTheComparison() {
        QFETCH(QStringList, options);
        QFETCH(QString, file);
        const QString out = test::temp_path(file);
        QFile::remove(out);
        QStringList args{"export",   "--text", kSentence, "--embed-dim", "32",    "--width", "1200",
                         "--height", "700",    "--scale", "1",           "--out", out};
        if (!options.contains(QStringLiteral("--view")))
            args << "--view"
                 << "compare";
        const test::ProcessRun run = test::run_attnviz(args + options, true);
        QVERIFY2(run.status == 0, run.err.constData());
        QVERIFY(run.err.isEmpty());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (file.endsWith(QLatin1String(".png"))) {
            QImageReader reader(out);
            QCOMPARE(reader.format(), QByteArray("png"));
            QCOMPARE(reader.size(), QSize(1200, 700));
            const QImage image = reader.read();
            QVERIFY(!image.isNull());
            QVERIFY(dark_pixels(image) > 500);
            // The difference panel is drawn in the diverging map: some cells clearly red.
            int red = 0;
            for (int y = 0; y < image.height(); y += 2)
                for (int x = image.width() * 2 / 3; x < image.width(); x += 2) {
                    const QColor c = image.pixelColor(x, y);
                    red += c.red() > 150 && c.green() < 110 && c.blue() < 110;
                }
            QVERIFY2(red > 10, qPrintable(QStringLiteral("%1 red pixels").arg(red)));
        } else if (file.endsWith(QLatin1String(".svg"))) {
            QVERIFY(bytes.startsWith("<?xml") || bytes.contains("<svg"));
            QVERIFY(bytes.contains("</svg>"));
            QVERIFY(bytes.contains("tired"));
            QVERIFY(bytes.contains("8 heads"));
            QVERIFY(bytes.size() > 20000);
        } else {
            QVERIFY(bytes.startsWith("%PDF-"));
            QVERIFY(bytes.trimmed().endsWith("%%EOF"));
            QVERIFY2(bytes.size() > 10000 && bytes.size() < 5000000,
                     qPrintable(QString::number(bytes.size())));
        }
    }

    // B is held to --memory-budget like A: over it, nothing is written and the message says
    // why; with room, the same command writes the figure.
    void exportCommandHoldsBToTheBudget() {
        AttentionDocument doc;
        doc.setTextA(kSentence);
        doc.setEmbedDim(32);
        const ComputeConfig a = doc.computeConfig();
        ComputeConfig b = a;
        b.num_heads = 8;
        const int threads = std::max(1, QThread::idealThreadCount());
        const TokenSequences tokens = resolve_tokens(a);
        const std::uint64_t need_a = estimate_snapshot_bytes(a, tokens, {}, threads);
        QVERIFY(estimate_snapshot_bytes(b, tokens, {}, threads) > need_a);
        const QString out = test::temp_path(QStringLiteral("b-over-budget.svg"));
        QFile::remove(out);
        const QStringList args{"export", "--text",         kSentence, "--embed-dim",
                               "32",     "--view",         "compare", "--b-num-heads",
                               "8",      "--memory-budget"};
        test::ProcessRun run =
            test::run_attnviz(args + QStringList{QString::number(need_a), "--out", out}, true);
        QCOMPARE(run.status, 1);
        QVERIFY2(run.err.contains("memory budget"), run.err.constData());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY(!QFile::exists(out));
        run = test::run_attnviz(args + QStringList{"1G", "--out", out}, true);
        QVERIFY2(run.status == 0, run.err.constData());
        QVERIFY(QFile::exists(out));
    }

    void exportCommandRefusesBadCompareOptions_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("no B") << QStringList{"--view", "compare"}
                              << QStringLiteral("needs a configuration B");
        QTest::newRow("B option without the view")
            << QStringList{"--b-causal", "on"} << QStringLiteral("--b-causal needs --view compare");
        QTest::newRow("preset without the view")
            << QStringList{"--compare", "causal"} << QStringLiteral("needs --view compare");
        QTest::newRow("unknown preset") << QStringList{"--view", "compare", "--compare", "bias"}
                                        << QStringLiteral("--compare must be causal");
        QTest::newRow("heads do not divide")
            << QStringList{"--view", "compare", "--b-num-heads", "5"}
            << QStringLiteral("does not divide");
        QTest::newRow("not on or off") << QStringList{"--view", "compare", "--b-causal", "maybe"}
                                       << QStringLiteral("on or off");
        QTest::newRow("B the same as A") << QStringList{"--view", "compare", "--b-causal", "off"}
                                         << QStringLiteral("B is the same as A");
        QTest::newRow("dropout without training is no change")
            << QStringList{"--view", "compare", "--b-dropout", "0.5"}
            << QStringLiteral("B is the same as A");
        QTest::newRow("head only in B") << QStringList{"--view", "compare:6", "--compare", "heads"}
                                        << QStringLiteral("from 1 to 4");
        QTest::newRow("bad view") << QStringList{"--view", "compared"}
                                  << QStringLiteral("compare:K");
        QStringList words;
        for (int k = 0; k < 2100; ++k)
            words << QStringLiteral("w%1").arg(k);
        QTest::newRow("too many tokens to compare")
            << QStringList{"--view", "compare", "--compare",
                           "causal", "--text",  words.join(QLatin1Char(' '))}
            << QStringLiteral("too many to compare");
        QTest::newRow("dropout out of range")
            << QStringList{"--view", "compare", "--b-dropout", "2"}
            << QStringLiteral("--b-dropout");
    }
    void exportCommandRefusesBadCompareOptions() {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        const QString out = test::temp_path(QStringLiteral("refused.png"));
        QFile::remove(out);
        const test::ProcessRun run = test::run_attnviz(
            QStringList{"export", "--text", kSentence, "--out", out} + options, true);
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void exportHelpDocumentsTheComparison() {
        const test::ProcessRun run = test::run_attnviz({"export", "--help"}, true);
        QCOMPARE(run.status, 0);
        for (const char* option : {"compare[:K]", "--compare PRESET", "--b-causal", "--b-num-heads",
                                   "--b-train", "--b-dropout", "--b-scoring", "--b-masked-rows",
                                   "--b-bias", "--b-positional", "--b-seed"})
            QVERIFY2(run.out.contains(option), option);
    }
};

QTEST_MAIN(CompareTest)
#include "ui_compare_test.moc"
