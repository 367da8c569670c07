// "Why this attention?" (issue 38): a real Alt-click on a cell of the heatmaps fills the pane
// beside them with the engine's models::attribute_qk (within 1e-6), the guide's induction-head
// example on the shipped attn-only-2l; clicking L1H4's bar focuses layer 1 head 4; with "Follow
// the mouse" on, hovering issues requests and only the last one's result is shown; a masked key,
// a demo source and a post-norm BERT are said in the pane; the exports, and `attnviz export
// --view why`, whose JSON equals `attnviz qk --out-json`'s, and its bad inputs; Alt-click on the
// Model tab's mosaic; the induction example's pane in a window and presenting.
#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QFontInfo>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <cmath>

#include "engine/models/model_folder.h"
#include "engine/models/qk_attribution.h"
#include "layout_check.h"
#include "model_view_support.h"
#include "test_support.h"
#include "ui/classroom/figure_canvas.h"
#include "ui/compute/attention_snapshot.h"
#include "ui/compute/model_store.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/i18n/language.h"
#include "ui/model/model_view.h"
#include "ui/model/why_panel.h"
#include "ui/render/heatmap_figure.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
/// The guide's `attnviz qk` example: a random string said twice; head 2.8 at the last token
/// (query 47) looks at key 18, the "8" after the first copy's "P".
const QString kText = QStringLiteral("q7Xv2LmR9tBw4ZkP8sYc3NdH6gJf1Qq7Xv2LmR9tBw4ZkP");
constexpr std::int64_t kQuery = 46, kKey = 17;  // from 0
const models::HeadRef kHead{1, 7};

QString attn_only() {
    return shipped_model(QStringLiteral("attn-only-2l"));
}

QString golden_model(const char* name) {
    return QStringLiteral(ATTNVIZ_TEST_GOLDEN_DIR "/models/") + QLatin1String(name);
}

models::QkAttribution engine(const QString& folder, std::int64_t query, std::int64_t key,
                             const QString& text = kText, models::HeadRef head = kHead) {
    const ModelPtr m = open_model(folder);
    const models::EncodedText e = models::encode_text(*m, text.toStdString());
    models::AttributionOptions o;
    o.num_threads = std::max(1, QThread::idealThreadCount());
    return models::attribute_qk(*m->model, e.input, head, query, key, o);
}

/// The first pair where `got` and `want` differ by more than `tol`, or empty.
QString differs(const models::QkAttribution& got, const models::QkAttribution& want, double tol) {
    if (std::abs(got.score - want.score) > tol)
        return QStringLiteral("score %1 against %2").arg(got.score).arg(want.score);
    if (got.pairs.size() != want.pairs.size()) return QStringLiteral("pair counts differ");
    for (std::size_t n = 0; n < want.pairs.size(); ++n)
        if (std::abs(got.pairs[n] - want.pairs[n]) > tol)
            return QStringLiteral("pair %1: %2 against %3")
                .arg(n)
                .arg(got.pairs[n], 0, 'g', 10)
                .arg(want.pairs[n], 0, 'g', 10);
    return {};
}
}  // namespace

class WhyTest : public test::WindowFixture {
    Q_OBJECT

    WhyPanel* pane() const { return w_->views()->whyPanel(); }
    HeatmapGridView* grid() const { return w_->findChild<HeatmapGridView*>(); }

    /// The grid's shown token that stands for piece `piece`, or -1.
    int shownToken(int piece) const {
        const ModelMaps* m = snap()->model.get();
        for (int t = 0; t < m->tokens; ++t)
            if (m->pieceOf(t) == piece) return t;
        return -1;
    }

    /// A point of the plot over head `head`'s cell (row, col), found by the figure's own hit
    /// test; a null point when none is on screen.
    QPoint cellPoint(int head, int row, int col) const {
        const HeatmapFigure* f = grid()->figure();
        const QSize s = grid()->plot()->size();
        for (int y = 0; y < s.height(); y += 1)
            for (int x = 0; x < s.width(); x += 1) {
                const FigureHit h = f->hitTest(QPointF(x, y));
                if (h.region == FigureHit::Region::Cells && h.head == head && h.row == row &&
                    h.col == col)
                    return {x, y};
            }
        return {};
    }

    /// The window on attn-only-2l over kText, one piece a token, at layer 2's heads.
    void openInductionExample() {
        openWindow();
        if (QTest::currentTestFailed()) return;
        QVERIFY(openModel(attn_only()));
        w_->document()->setWords(false);
        w_->document()->setTextA(kText);
        w_->document()->setLayer(kHead.layer);
        SETTLE(*w_);
        QCOMPARE(snap()->layer, int(kHead.layer));
    }

  private slots:
    void cleanup() { closeWindow(); }

    void altClickingACellExplainsItAndAHeadsBarFocusesThatHead() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        QVERIFY(!pane()->isVisible());  // the maps keep the whole tab until asked
        const int row = shownToken(int(kQuery)), col = shownToken(int(kKey));
        QVERIFY(row >= 0 && col >= 0);
        const QPoint at = cellPoint(int(kHead.head), row, col);
        QVERIFY(!at.isNull());
        QSignalSpy explained(pane(), &WhyPanel::explained);
        // A plain click would enlarge the head: Alt-click explains it, the grid stays.
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, at);
        QVERIFY(pane()->isVisible());
        QVERIFY(explained.wait(60000));
        QCOMPARE(w_->document()->view(), FigureView::Grid);
        const WhyResult* r = pane()->result();
        QVERIFY(r);
        const models::QkAttribution want = engine(attn_only(), kQuery, kKey);
        const QString problem = differs(r->attribution, want, 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // The guide's numbers: score 30.74, the top pair L1H4 at the key × the query's
        // embeddings, 10.29, a third of it.
        QVERIFY(std::abs(r->attribution.score - 30.74) < 0.01);
        const WhyFigure& f = pane()->figure();
        QCOMPARE(f.barLabel(0), QStringLiteral("L1H4 at “8” (key side) × embeddings at “P” "
                                               "(query side)"));
        QVERIFY(std::abs(f.barValue(0) - 10.29) < 0.01);
        QCOMPARE(f.barShare(0), QStringLiteral("33%"));
        // As many pairs as the pane's height holds, at most the default, and the rest.
        QVERIFY(f.barCount() > WhyFigure::kMinFitted && f.barCount() <= WhyFigure::kDefaultTop + 1);
        double sum = 0.0;
        for (int k = 0; k < f.barCount(); ++k)
            sum += f.barValue(k);
        // The bars are the engine's pairs, all of them: their sum is the pairs' (and, to a
        // float's precision, the score).
        double pairs = 0.0;
        for (const double v : want.pairs)
            pairs += v;
        QVERIFY(std::abs(sum - pairs) < 1e-6);
        QVERIFY(std::abs(sum - r->attribution.score) < 1e-3);
        // The head's weight at the cell is in the caption, as the map has it.
        const float weight = snap()->model->value(int(kHead.layer), int(kHead.head), row, col);
        QVERIFY(std::abs(r->weight - double(weight)) < 1e-7);
        QVERIFY(f.captionText().contains(QString::number(weight, 'f', 3)));
        // Clicking L1H4's bar focuses layer 1 head 4.
        QVERIFY(f.barHead(0) == (models::HeadRef{0, 3}));
        QTest::mouseClick(pane()->canvas(), Qt::LeftButton, {}, pane()->barCentre(0));
        QCOMPARE(w_->document()->computeConfig().layer, 0);
        QCOMPARE(w_->document()->view(), FigureView::Head);
        QCOMPARE(w_->document()->viewHead(), 3);
        // The rest's bar focuses nothing.
        QVERIFY(!f.barHead(f.barCount() - 1));
    }

    /// Open beside the maps at 1280×800 and 1920×1080, in English and Chinese: no text of the
    /// pane clipped, the maps still the wider part (each state saved as why-LANG-SIZE.png).
    void thePaneFitsBesideTheMapsInBothLanguages() {
        for (const char* language : {"en", "zh_CN"})
            for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
                install_translations(QString::fromLatin1(language));
                openWindow({QString(), size});
                if (QTest::currentTestFailed()) break;
                QVERIFY(openModel(attn_only()));
                w_->document()->setWords(false);
                w_->document()->setTextA(kText);
                w_->document()->setLayer(kHead.layer);
                w_->document()->setView(FigureView::Head, int(kHead.head));
                SETTLE(*w_);
                QSignalSpy explained(pane(), &WhyPanel::explained);
                const QPoint at =
                    cellPoint(int(kHead.head), shownToken(int(kQuery)), shownToken(int(kKey)));
                QVERIFY(!at.isNull());
                QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, at);
                QVERIFY(explained.wait(60000));
                QTest::qWait(100);
                const QString name = QStringLiteral("why-%1-%2x%3.png")
                                         .arg(QLatin1String(language))
                                         .arg(size.width())
                                         .arg(size.height());
                // ATTNVIZ_SHOTS=DIR keeps them to look at; the test's own folder goes at its end.
                const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
                QVERIFY(w_->grab().save(shots.isEmpty() ? test::temp_path(name)
                                                        : shots + QLatin1Char('/') + name));
                // The canvas does not scroll: every bar drawn and the notes inside it, the
                // pairs left out summed in the rest, which says how many it holds; the title
                // in one of its forms, never cut with an ellipsis.
                const WhyFigure& f = pane()->figure();
                const QRectF canvas(QPointF(0, 0), QSizeF(pane()->canvas()->size()));
                QVERIFY2(f.barCount() >= WhyFigure::kMinFitted + 1, qPrintable(name));
                for (int k = 0; k < f.barCount(); ++k)
                    QVERIFY2(canvas.contains(f.barRect(k)), qPrintable(name + QString::number(k)));
                QVERIFY2(!f.notesRect().isEmpty() && canvas.contains(f.notesRect()),
                         qPrintable(name));
                const std::int64_t rest =
                    std::int64_t(pane()->result()->attribution.pairs.size()) - f.barCount() + 1;
                QVERIFY(f.barLabel(f.barCount() - 1).contains(QString::number(rest)));
                double sum = 0.0;
                for (int k = 0; k < f.barCount(); ++k)
                    sum += f.barValue(k);
                QVERIFY2(std::abs(sum - pane()->result()->attribution.score) < 1e-3,
                         qPrintable(name));
                QVERIFY2(!f.titleElided(), qPrintable(name));
                const QStringList clipped = test::clipped_texts(pane());
                QVERIFY2(clipped.isEmpty(),
                         qPrintable(name + QLatin1Char(' ') + clipped.join(QStringLiteral("; "))));
                QVERIFY2(grid()->width() > pane()->width(), qPrintable(name));
                closeWindow();
            }
        install_translations(QStringLiteral("en"));
    }

    /// The example "Why the induction head looks there" with its cell Alt-clicked, as its
    /// explanation asks, at 1280×800 and in Presentation Mode (the projector's 1280×800), in
    /// English and Chinese: no text clipped, the pane's bars inside it under a whole title, and
    /// one head's map as large as ui_layout_test wants it (a quarter of the height presenting,
    /// a fifth in a window), the pane beside it or not (presenting, it once left 163 px).
    void theInductionExamplesPaneFitsInBothLanguages() {
        for (const char* language : {"en", "zh_CN"}) {
            install_translations(QString::fromLatin1(language));
            openWindow({QString(), QSize(1280, 800)});
            if (QTest::currentTestFailed()) break;
            QVERIFY(w_->loadExample(QStringLiteral("why_induction")));
            SETTLE(*w_);
            QSignalSpy explained(pane(), &WhyPanel::explained);
            const QPoint at = cellPoint(int(kHead.head), int(kQuery), int(kKey));
            QVERIFY(!at.isNull());
            QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, at);
            QVERIFY2(explained.wait(60000), qPrintable(pane()->messageLabel()->text()));
            // English in the window too (its words are the longer); both presenting.
            for (const bool present : {false, true}) {
                if (!present && QLatin1String(language) != QLatin1String("en")) continue;
                if (present) w_->setPresentation(true);  // full screen on the projector
                QTest::qWait(50);
                SETTLE(*w_);
                QApplication::processEvents();
                checkExamplesPane(
                    QStringLiteral("why-example-%1-%2.png")
                        .arg(QLatin1String(language))
                        .arg(present ? QStringLiteral("presenting") : QStringLiteral("1280x800")),
                    present);
                if (QTest::currentTestFailed()) break;
            }
            closeWindow();
            if (QTest::currentTestFailed()) break;
        }
        install_translations(QStringLiteral("en"));
    }

  private:
    /// theInductionExamplesPaneFitsInBothLanguages()'s checks of the window as it is now,
    /// saved as `name` (in ATTNVIZ_SHOTS when set).
    void checkExamplesPane(const QString& name, bool present) {
        const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
        QVERIFY(w_->grab().save(shots.isEmpty() ? test::temp_path(name)
                                                : shots + QLatin1Char('/') + name));
        const QStringList clipped = test::clipped_texts(w_.get());
        QVERIFY2(clipped.isEmpty(),
                 qPrintable(name + QLatin1Char(' ') + clipped.join(QStringLiteral("; "))));
        const int map_h = grid()->figure()->panelRect(0)->rect().height();
        QVERIFY2(map_h >= w_->height() / (present ? 4 : 5),
                 qPrintable(QStringLiteral("%1: the map is %2 px of the window's %3")
                                .arg(name)
                                .arg(map_h)
                                .arg(w_->height())));
        const WhyFigure& f = pane()->figure();
        QVERIFY2(!f.titleElided(), qPrintable(name));
        QVERIFY2(f.barCount() >= WhyFigure::kMinFitted + 1, qPrintable(name));
        const QRectF canvas(QPointF(0, 0), QSizeF(pane()->canvas()->size()));
        for (int k = 0; k < f.barCount(); ++k)
            QVERIFY2(canvas.contains(f.barRect(k)), qPrintable(name + QString::number(k)));
        // Presenting, the pane's type is two thirds of the maps' (24 pt) and it keeps to three
        // tenths of the screen: its labels go above their bars.
        if (present) {
            QVERIFY(pane()->width() <= 1280 * 3 / 10);
            QCOMPARE(QFontInfo(pane()->font()).pixelSize(), w_->presentationPixelSize() * 2 / 3);
            QVERIFY(f.stacked());
        }
        QVERIFY2(grid()->width() > pane()->width(), qPrintable(name));
    }

  private slots:
    /// The Model tab's mosaic: its 47-token thumbnails are too small to aim at one cell, so
    /// Alt-click on L2H8's asks about the last token and where it looks most (key 18, the cell
    /// of the heatmaps' test); the one pane opens beside the mosaic, not the layer's heads, and
    /// goes back beside the heatmaps with them.  The mean says why not.  On a short text the
    /// cells are large enough to aim at: the one under the mouse, and the pane follows it.
    void altClickingTheMosaicExplainsACell() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        ModelView* mosaic = w_->views()->modelView();
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTRY_VERIFY(!mosaic->cellRect(1, 7).isEmpty());
        QVERIFY(mosaic->cellRect(1, 7).width() < ModelView::kPickPixels * snap()->model->tokens);
        QVERIFY(mosaic->captionText().contains(QStringLiteral("Alt-click")));
        QSignalSpy explained(pane(), &WhyPanel::explained);
        QTest::mouseClick(mosaic, Qt::LeftButton, Qt::AltModifier, mosaic->cellRect(1, 7).center());
        QCOMPARE(w_->views()->currentTab(), ViewTabs::ModelTab);
        QVERIFY(pane()->isVisible());
        QCOMPARE(pane()->parentWidget()->objectName(), QStringLiteral("modelSplitter"));
        QVERIFY(explained.wait(60000));
        QTest::qWait(50);
        // ATTNVIZ_SHOTS=DIR keeps it to look at; the test's own folder goes at its end.
        {
            const QString shots = qEnvironmentVariable("ATTNVIZ_SHOTS");
            const QString name = QStringLiteral("why-mosaic.png");
            QVERIFY(w_->grab().save(shots.isEmpty() ? test::temp_path(name)
                                                    : shots + QLatin1Char('/') + name));
        }
        QString problem =
            differs(pane()->result()->attribution, engine(attn_only(), kQuery, kKey), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        QVERIFY(pane()->isVisible());
        QCOMPARE(pane()->parentWidget()->objectName(), QStringLiteral("gridSplitter"));
        QCOMPARE(pane()->result()->attribution.key, kKey);
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTest::mouseClick(mosaic, Qt::LeftButton, Qt::AltModifier,
                          mosaic->cellRect(1, snap()->model->meanColumn()).center());
        QVERIFY2(pane()->messageLabel()->text().contains(QStringLiteral("not of the mean")),
                 qPrintable(pane()->messageLabel()->text()));

        // "<bos> a b a b": cells of 30 px and more; query 5 "b" → key 3 "b" under the mouse.
        const QString text = QStringLiteral("abab");
        w_->document()->setTextA(text);
        SETTLE(*w_);
        const int L = snap()->model->tokens;
        QCOMPARE(L, 5);
        const auto point = [&](int head, int row, int col) {
            const QRect r = mosaic->cellRect(1, head);
            return QPoint(r.left() + (2 * col + 1) * r.width() / (2 * L),
                          r.top() + (2 * row + 1) * r.height() / (2 * L));
        };
        QVERIFY(mosaic->cellRect(1, 7).width() >= ModelView::kPickPixels * L);
        const ModelView::MapCell c = mosaic->mapCellAt(point(7, 4, 2));
        QVERIFY(c.layer == 1 && c.head == 7 && c.row == 4 && c.col == 2);
        explained.clear();
        QTest::mouseClick(mosaic, Qt::LeftButton, Qt::AltModifier, point(7, 4, 2));
        QVERIFY(explained.wait(60000));
        problem = differs(pane()->result()->attribution, engine(attn_only(), 4, 2, text), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Following the mouse: L2H5's cell under it.
        QTest::mouseClick(pane()->followBox(), Qt::LeftButton);
        explained.clear();
        QTest::mouseMove(mosaic, point(4, 3, 1));
        QVERIFY(explained.wait(60000));
        problem = differs(pane()->result()->attribution,
                          engine(attn_only(), 3, 1, text, models::HeadRef{1, 4}), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void followingTheMouseShowsOnlyTheLastRequest() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        const int row = shownToken(int(kQuery));
        const QPoint first = cellPoint(int(kHead.head), row, shownToken(int(kKey)));
        QVERIFY(!first.isNull());
        QSignalSpy explained(pane(), &WhyPanel::explained);
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, first);
        QVERIFY(explained.wait(60000));
        explained.clear();
        // The head enlarged (a plain click), as a teacher sweeps its stripe: beside the pane,
        // eight heads' cells are too small to aim at.
        w_->document()->setView(FigureView::Head, int(kHead.head));
        SETTLE(*w_);
        QTest::qWait(100);  // the grid laid out again beside the pane that opened
        // Off: hovering asks nothing.
        const int before = pane()->requestsStarted();
        QTest::mouseMove(grid()->plot(), cellPoint(int(kHead.head), row, shownToken(20)));
        QCOMPARE(pane()->requestsStarted(), before);
        // On: a sweep along the query's row; each cell asks, only the last is drawn.
        QTest::mouseClick(pane()->followBox(), Qt::LeftButton);
        QVERIFY(pane()->following());
        const std::int64_t keys[] = {21, 25, 30, 33, 34};
        // Faster than the attributions end: the moves are sent without an event loop between.
        std::vector<QPoint> points;
        for (const std::int64_t key : keys) {
            points.push_back(cellPoint(int(kHead.head), row, shownToken(int(key))));
            QVERIFY(!points.back().isNull());
        }
        for (const QPoint& p : points) {
            QMouseEvent move(QEvent::MouseMove, p, grid()->plot()->mapToGlobal(p), Qt::NoButton,
                             Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(grid()->plot(), &move);
        }
        QCOMPARE(pane()->requestsStarted(), before + int(std::size(keys)));
        QVERIFY(explained.wait(60000));
        QTest::qWait(200);  // anything superseded would have arrived by now
        QCOMPARE(explained.size(), 1);
        QCOMPARE(pane()->result()->attribution.key, keys[std::size(keys) - 1]);
        const QString problem =
            differs(pane()->result()->attribution, engine(attn_only(), kQuery, 34), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    /// A text's pass is recorded once: the window's own pass (ModelPass::stream) stands in for
    /// it, so even the first Alt-click runs no pass; the cells are explained from the record
    /// (the engine's numbers within 1e-6), and a text changed while the pane is open has its
    /// pass ready before any click.
    void aTextsPassIsRecordedOnceForAllItsCells() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        QVERIFY(!pane()->isVisible());
        QVERIFY(pane()->hasStream());  // closed, it records nothing: the window's pass
        QSignalSpy explained(pane(), &WhyPanel::explained);
        const int row = shownToken(int(kQuery));
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier,
                          cellPoint(int(kHead.head), row, shownToken(int(kKey))));
        QVERIFY(explained.wait(60000));
        QVERIFY(pane()->hasStream());
        explained.clear();
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier,
                          cellPoint(int(kHead.head), row, shownToken(30)));
        QVERIFY(explained.wait(60000));
        QCOMPARE(pane()->result()->attribution.key, std::int64_t{30});
        QString problem =
            differs(pane()->result()->attribution, engine(attn_only(), kQuery, 30), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Another text, the pane open: its pass is recorded as soon as the maps show it.
        const QString text = kText.left(40);
        w_->document()->setTextA(text);
        SETTLE(*w_);
        QVERIFY(pane()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(pane()->hasStream(), 60000);
        const int last = snap()->model->tokens - 1;
        const std::int64_t query = snap()->model->pieceOf(last), key = snap()->model->pieceOf(3);
        explained.clear();
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier,
                          cellPoint(int(kHead.head), last, 3));
        QVERIFY(explained.wait(60000));
        QCOMPARE(pane()->result()->attribution.query, query);
        problem =
            differs(pane()->result()->attribution, engine(attn_only(), query, key, text), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    /// The pane explains the intact model: a pass with a head knocked out is not its record.
    /// On the same text it keeps the intact pass's; on a new text, closed, it has none (it
    /// records nothing ahead) until its first Alt-click records the intact pass, whose numbers
    /// are the engine's within 1e-6.
    void aPassWithHeadsKnockedOutIsNotThePanesRecord() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        QVERIFY(pane()->hasStream());
        w_->document()->knockOut(0, 3, KnockOut::Zero);
        SETTLE(*w_);
        QCOMPARE(snap()->model->stream->interventions.size(), std::size_t(1));
        QVERIFY(pane()->hasStream());  // the same text: the intact pass's record is kept
        const QString text = kText.left(40);
        w_->document()->setTextA(text);
        SETTLE(*w_);
        QVERIFY(snap()->model->stream);
        QVERIFY(!pane()->isVisible());
        QVERIFY(!pane()->hasStream());
        const int last = snap()->model->tokens - 1;
        const std::int64_t query = snap()->model->pieceOf(last), key = snap()->model->pieceOf(3);
        QSignalSpy explained(pane(), &WhyPanel::explained);
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier,
                          cellPoint(int(kHead.head), last, 3));
        QVERIFY(explained.wait(60000));
        QVERIFY(pane()->hasStream());
        QCOMPARE(pane()->result()->attribution.query, query);
        const QString problem =
            differs(pane()->result()->attribution, engine(attn_only(), query, key, text), 1e-6);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void aMaskedKeyADemoAndAPostNormModelAreSaidInThePane() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        // Key 30 after query 18: above the diagonal, hidden by the causal mask.
        const QPoint masked = cellPoint(int(kHead.head), shownToken(17), shownToken(29));
        QVERIFY(!masked.isNull());
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, masked);
        QVERIFY(pane()->isVisible());
        QVERIFY(!pane()->isRunning());
        QVERIFY2(pane()->messageLabel()->text().contains(QStringLiteral("causal mask")),
                 qPrintable(pane()->messageLabel()->text()));
        QVERIFY(!pane()->result());

        // A post-norm BERT: the engine's reason, in the pane.
        QVERIFY(openModel(golden_model("bert_gamma_beta")));
        w_->document()->setTextA(QStringLiteral("the cat sat"));
        SETTLE(*w_);
        pane()->explainCell(0, 0, 1, 0);
        QTRY_VERIFY_WITH_TIMEOUT(!pane()->isRunning(), 60000);
        QVERIFY2(pane()->messageLabel()->text().contains(QStringLiteral("post-norm")),
                 qPrintable(pane()->messageLabel()->text()));
        QVERIFY(!pane()->result());

        // The demo layer: why it needs a model.
        w_->document()->setModelFolder(QString());
        SETTLE(*w_);
        QVERIFY(!snap()->model);
        QTest::mouseClick(grid()->plot(), Qt::LeftButton, Qt::AltModifier, cellPoint(0, 1, 1));
        QVERIFY2(pane()->messageLabel()->text().contains(QStringLiteral("needs a trained model")),
                 qPrintable(pane()->messageLabel()->text()));
    }

    void thePaneExportsItsFigure() {
        openInductionExample();
        if (QTest::currentTestFailed()) return;
        QSignalSpy failed(pane(), &WhyPanel::failed);
        QVERIFY(!pane()->exportTo(test::temp_path(QStringLiteral("nothing.png"))));
        QCOMPARE(failed.size(), 1);
        QSignalSpy explained(pane(), &WhyPanel::explained);
        pane()->explainCell(int(kHead.layer), int(kHead.head), shownToken(int(kQuery)),
                            shownToken(int(kKey)));
        QVERIFY(explained.wait(60000));
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out = test::temp_path(QStringLiteral("pane.") + QLatin1String(suffix));
            QFile::remove(out);
            QVERIFY(pane()->exportTo(out));
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("pane.png"))).isNull());
    }

    void theExportCommandWritesTheFigureAndQksJson() {
        const QStringList base{QStringLiteral("export"),
                               QStringLiteral("--view"),
                               QStringLiteral("why"),
                               QStringLiteral("--model"),
                               attn_only(),
                               QStringLiteral("--text"),
                               kText,
                               QStringLiteral("--head"),
                               QStringLiteral("2.8"),
                               QStringLiteral("--query"),
                               QStringLiteral("-1"),
                               QStringLiteral("--key"),
                               QStringLiteral("18"),
                               QStringLiteral("--top"),
                               QStringLiteral("10")};
        const QString json = test::temp_path(QStringLiteral("why.json"));
        const QString reference = test::temp_path(QStringLiteral("qk.json"));
        test::ProcessRun r = test::run_attnviz(base + QStringList{QStringLiteral("--out"), json});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::run_attnviz({QStringLiteral("qk"), QStringLiteral("--model"), attn_only(),
                               QStringLiteral("--text"), kText, QStringLiteral("--head"),
                               QStringLiteral("2.8"), QStringLiteral("--query"),
                               QStringLiteral("-1"), QStringLiteral("--key"), QStringLiteral("18"),
                               QStringLiteral("--top"), QStringLiteral("10"),
                               QStringLiteral("--out-json"), reference});
        QVERIFY2(r.status == 0, r.err.constData());
        QFile a(json), b(reference);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray got = a.readAll();
        QCOMPARE(got, b.readAll());
        QVERIFY(got.contains("\"score\":30.74"));
        for (const char* suffix : {"png", "svg", "pdf"}) {
            const QString out = test::temp_path(QStringLiteral("cli.") + QLatin1String(suffix));
            QFile::remove(out);
            r = test::run_attnviz(base + QStringList{QStringLiteral("--out"), out});
            QVERIFY2(r.status == 0, r.err.constData());
            QVERIFY(QFile(out).size() > 1000);
        }
        QVERIFY(!QImage(test::temp_path(QStringLiteral("cli.png"))).isNull());
    }

    void badExportInputIsOneLineAndNoFile() {
        const QString none = test::temp_path(QStringLiteral("none.png"));
        const QString m = attn_only();
        const QStringList cell{QStringLiteral("--head"),  QStringLiteral("2.8"),
                               QStringLiteral("--query"), QStringLiteral("-1"),
                               QStringLiteral("--key"),   QStringLiteral("18")};
        const QList<test::BadInput> bad{
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         golden_model("bert_gamma_beta"), QStringLiteral("--text"),
                         QStringLiteral("the cat sat"), QStringLiteral("--head"),
                         QStringLiteral("1.1"), QStringLiteral("--query"), QStringLiteral("2"),
                         QStringLiteral("--key"), QStringLiteral("1")},
             1, "post-norm"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         m} +
                 cell,
             2, "--text"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         m, QStringLiteral("--text"), kText},
             2, "--head"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         m, QStringLiteral("--text"), kText, QStringLiteral("--head"),
                         QStringLiteral("2.8"), QStringLiteral("--query"), QStringLiteral("3"),
                         QStringLiteral("--key"), QStringLiteral("18")},
             2, "causal mask"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         m, QStringLiteral("--text"), kText, QStringLiteral("--head"),
                         QStringLiteral("3.1"), QStringLiteral("--query"), QStringLiteral("-1"),
                         QStringLiteral("--key"), QStringLiteral("18")},
             2, "--head"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("why"), QStringLiteral("--model"),
                         m, QStringLiteral("--text"), kText, QStringLiteral("--head"),
                         QStringLiteral("2.8"), QStringLiteral("--query"), QStringLiteral("99"),
                         QStringLiteral("--key"), QStringLiteral("18")},
             2, "--query"},
            {QStringList{QStringLiteral("--view"), QStringLiteral("grid"), QStringLiteral("--text"),
                         kText} +
                 cell,
             2, "--view why"},
        };
        const QString problems = test::refusal_problems({QStringLiteral("export")}, bad, none);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }
};

QTEST_MAIN(WhyTest)
#include "ui_why_test.moc"
