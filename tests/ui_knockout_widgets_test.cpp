// Knocking a head out in the window, driven through its widgets on the shipped attn-only-2l
// and a random string said twice: the context menu of the Model tab knocks out layer 2,
// head 8 (the induction head, test_predictions knockingOutTheInductionHead), the mosaic and
// the grid draw it crossed out, the strip under the maps loses its correct guesses in the
// second copy, the predictions box says before → after, Edit ▸ Undo / Redo take it back and
// forth, and the model's panel gives way to the demo controls on the demo layer.  Every
// number is checked against the pass's own ModelMaps.
#include <QAction>
#include <QContextMenuEvent>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <random>

#include <qcustomplot.h>

#include "repeated_text.h"
#include "test_support.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/document/shipped_models.h"
#include "ui/model/model_panel.h"
#include "ui/model/model_view.h"
#include "ui/model/predictions_view.h"
#include "ui/render/heatmap_figure.h"
#include "ui/widgets/controls_panel.h"
#include "ui/widgets/document_history.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/knock_out_menu.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::test::repeated_text;
using attnviz::test::second_copy_loss;

namespace {

/// Correct top-1 guesses of pieces [51, 101) straight from the pass's predictions.
int second_copy_hits(const ModelMaps& m) {
    const ModelPredictions& p = *m.predictions;
    int hits = 0;
    for (std::size_t t = 50; t + 1 < m.encoding.ids.size(); ++t)
        hits += p.top[t][0].id == m.encoding.ids[t + 1];
    return hits;
}

/// The predictions box's first row for `piece`, from the pass's own predictions:
/// "token\tprobability", as PredictionsBox::rows() writes it.
QString top1_row(const ModelPredictions& p, int piece) {
    const auto it = std::find(p.positions.begin(), p.positions.end(), piece);
    if (it == p.positions.end()) return {};
    const auto k = std::size_t(it - p.positions.begin());
    return QStringLiteral("%1\t%2")
        .arg(readable_piece(p.top_text[k][0]))
        .arg(std::exp(p.top[k][0].logprob), 0, 'f', 4);
}

/// True when the pixel is the knock-out cross's red, not a colour of viridis.
bool crossed(const QColor& c) {
    return c.red() > 140 && c.green() < 110 && c.blue() < 110;
}

}  // namespace

class KnockOutWidgetsTest : public test::WindowFixture {
    Q_OBJECT
  private:
    const ModelMaps& maps() const { return *snap()->model; }
    QAction* action(const char* name) const {
        for (QAction* a : w_->findChildren<QAction*>())
            if (a->objectName() == QLatin1String(name)) return a;
        qFatal("no action %s", name);
    }
    void openModelWithRepeatedText() {
        w_->openModel(shipped_model(QStringLiteral("attn-only-2l")));
        QTRY_VERIFY_WITH_TIMEOUT(w_->document()->computeConfig().usesModel(), 60000);
        w_->document()->setTextA(repeated_text());
        SETTLE(*w_);
        QTRY_VERIFY_WITH_TIMEOUT(snap()->model && snap()->model->predictions, 60000);
    }

  private slots:
    void init() {
        if (shipped_model(QStringLiteral("attn-only-2l")).isEmpty())
            QSKIP("the shipped models are not built");
        openWindow();
        SETTLE(*w_);
    }
    void cleanup() { closeWindow(); }

    void knockingOutTheInductionHead() {
        openModelWithRepeatedText();
        AttentionDocument* doc = w_->document();
        QCOMPARE(maps().encoding.ids.size(), std::size_t(101));
        QCOMPARE(maps().tokens, 101);
        PredictionStrip* strip = w_->grid()->predictionStrip();
        QVERIFY(!strip->isHidden());
        QCOMPARE(int(strip->guesses().size()), 101);
        const int intact_hits = second_copy_hits(maps());
        QCOMPARE(strip->correctGuesses(51, 101), intact_hits);
        QVERIFY2(intact_hits >= 35, qPrintable(QString::number(intact_hits)));
        const double intact_loss = second_copy_loss(*maps().predictions);
        // The strip's columns lie under the map's (one per token, in order).
        QTRY_VERIFY(strip->tokenAt(10) >= 0 || strip->guesses().empty() == false);

        // The model's panel replaces the demo controls.
        ModelPanel* panel = w_->modelPanel();
        QVERIFY(!panel->isHidden());
        for (QGroupBox* box :
             w_->controlsPanel()->findChildren<QGroupBox*>(QString(), Qt::FindDirectChildrenOnly))
            QCOMPARE(box->isHidden(), box->objectName() != QLatin1String("displayBox"));
        QVERIFY(panel->predictions()->lossLines().size() == 2);
        QCOMPARE(
            panel->predictions()->lossLines()[1],
            QStringLiteral("Loss on the second copy: %1 nats/token").arg(intact_loss, 0, 'f', 2));

        // The Model tab's context menu on layer 2, head 8: Knock Out (Zero).
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        ModelView* mosaic = w_->views()->modelView();
        QTRY_VERIFY(!mosaic->cellRect(1, 7).isEmpty());
        const QRect cell = mosaic->cellRect(1, 7);
        QContextMenuEvent menu_event(QContextMenuEvent::Mouse, cell.center(),
                                     mosaic->mapToGlobal(cell.center()));
        QApplication::sendEvent(mosaic, &menu_event);
        QMenu* menu = w_->knockOutMenu()->lastMenu();
        QVERIFY(menu);
        QAction* zero = menu->findChild<QAction*>(QStringLiteral("knockOutZeroAction"));
        QVERIFY(zero);
        QVERIFY(!menu->findChild<QAction*>(QStringLiteral("restoreHeadAction"))->isEnabled());
        zero->trigger();
        menu->close();
        QVERIFY(doc->isKnockedOut(1, 7));
        SETTLE(*w_);
        QTRY_VERIFY(snap()->model->knocked_out.count({1, 7}) == 1);
        QVERIFY(snap()->model->intact_predictions);

        // Crossed out in the mosaic, not its neighbours.
        mosaic->repaint();
        const QImage shot = mosaic->grab().toImage();
        auto on_diagonal = [&](const QRect& r) {
            return QColor(shot.pixel(r.left() + r.width() / 5, r.top() + r.height() / 5));
        };
        QVERIFY(crossed(on_diagonal(mosaic->cellRect(1, 7))));
        QVERIFY(!crossed(on_diagonal(mosaic->cellRect(1, 6))));
        QVERIFY(!crossed(on_diagonal(mosaic->cellRect(0, 7))));

        // The strip loses its correct guesses in the second copy.
        const int knocked_hits = second_copy_hits(maps());
        QCOMPARE(strip->correctGuesses(51, 101), knocked_hits);
        QVERIFY2(knocked_hits < intact_hits / 2,
                 qPrintable(QStringLiteral("%1 -> %2").arg(intact_hits).arg(knocked_hits)));
        QVERIFY(strip->summary().contains(QStringLiteral("L2 H8")));

        // The box: before → after, and the knocked model's guesses beside the intact ones.
        PredictionsBox* box = panel->predictions();
        const double knocked_loss = second_copy_loss(*maps().predictions);
        QVERIFY(knocked_loss > intact_loss + 1.0);
        QCOMPARE(box->lossLines()[1], QStringLiteral("Loss on the second copy: %1 → %2 nats/token")
                                          .arg(intact_loss, 0, 'f', 2)
                                          .arg(knocked_loss, 0, 'f', 2));
        QCOMPARE(box->lossLines()[0], QStringLiteral("Loss on the text: %1 → %2 nats/token")
                                          .arg(maps().intact_predictions->loss, 0, 'f', 2)
                                          .arg(maps().predictions->loss, 0, 'f', 2));
        // A position of the second copy (piece 70 predicts piece 71): its top-10 both ways.
        box->setFocusPiece(70);
        QCOMPARE(box->shownPiece(), 70);
        const QStringList after = box->rows(false), before = box->rows(true);
        QCOMPARE(after.size(), ModelPredictions::kTop);
        QCOMPARE(before.size(), ModelPredictions::kTop);
        QCOMPARE(before[0],
                 QStringLiteral("%1\t%2")
                     .arg(readable_piece(maps().intact_predictions->top_text[70][0]))
                     .arg(std::exp(maps().intact_predictions->top[70][0].logprob), 0, 'f', 4));
        QVERIFY(after != before);
        // The panel lists the head with its mode.
        const auto heads =
            panel->knockedOutList()->findChildren<QLabel*>(QStringLiteral("knockedOutHead"));
        QCOMPARE(heads.size(), 1);
        QCOMPARE(heads[0]->text(), QStringLiteral("Layer 2 · head 8 — zero"));

        // Edit ▸ Undo puts the head back; Redo knocks it out again.
        QAction* undo = action("undoAction");
        QAction* redo = action("redoAction");
        QVERIFY(undo->isEnabled());
        undo->trigger();
        QVERIFY(!doc->isKnockedOut(1, 7));
        SETTLE(*w_);
        QTRY_VERIFY(snap()->model->knocked_out.empty());
        QCOMPARE(strip->correctGuesses(51, 101), intact_hits);
        QVERIFY(!box->lossLines()[1].contains(QStringLiteral("→")));
        QVERIFY(redo->isEnabled());
        redo->trigger();
        QVERIFY(doc->isKnockedOut(1, 7));
        SETTLE(*w_);
        QCOMPARE(strip->correctGuesses(51, 101), knocked_hits);

        // The grid of layer 2: the same head, now knocked out by its mean from its panel.
        doc->setLayer(1);
        doc->setView(FigureView::Grid);
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        SETTLE(*w_);
        HeatmapFigure* figure = w_->grid()->figure();
        int panel8 = -1;
        for (int k = 0; k < figure->panelCount(); ++k)
            if (figure->panelHead(k) == 7) panel8 = k;
        QVERIFY(panel8 >= 0);
        QVERIFY(figure->panelTitle(panel8).contains(QStringLiteral("knocked out")));
        w_->grid()->contextMenuAt(QPointF(figure->panelRect(panel8)->rect().center()));
        menu = w_->knockOutMenu()->lastMenu();
        QVERIFY(menu &&
                menu->findChild<QAction*>(QStringLiteral("knockOutZeroAction"))->isChecked());
        menu->findChild<QAction*>(QStringLiteral("knockOutMeanAction"))->trigger();
        menu->close();
        QVERIFY(doc->knockedOut().at({1, 7}) == KnockOut::Mean);
        SETTLE(*w_);
        QVERIFY(figure->panelTitle(panel8).contains(QStringLiteral("knocked out")));
        QVERIFY(!figure->panelTitle(panel8 - 1).contains(QStringLiteral("knocked out")));

        // Ctrl-click in the Model tab restores it; the panel's list empties.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        QTRY_VERIFY(!mosaic->cellRect(1, 7).isEmpty());
        QTest::mouseClick(mosaic, Qt::LeftButton, Qt::ControlModifier,
                          mosaic->cellRect(1, 7).center());
        QVERIFY(!doc->isKnockedOut(1, 7));
        QCOMPARE(w_->views()->currentTab(), ViewTabs::ModelTab);  // no layer opened
        SETTLE(*w_);
        QTRY_VERIFY(panel->knockedOutList()->findChildren<QLabel*>().isEmpty());
        QVERIFY(!panel->restoreAllButton()->isEnabled());
        // Undo twice: mean, then zero again.
        undo->trigger();
        QVERIFY(doc->knockedOut().at({1, 7}) == KnockOut::Mean);
        undo->trigger();
        QVERIFY(doc->knockedOut().at({1, 7}) == KnockOut::Zero);
        SETTLE(*w_);
        // The panel's Restore button.
        auto* restore =
            panel->knockedOutList()->findChild<QToolButton*>(QStringLiteral("restoreHeadButton"));
        QTRY_VERIFY(restore);
        restore->click();
        QVERIFY(doc->knockedOut().empty());

        // Back to the demo layer: the demo controls return, the model's panel goes.
        doc->setModelFolder(QString());
        SETTLE(*w_);
        QVERIFY(panel->isHidden());
        QVERIFY(strip->isHidden());
        for (QGroupBox* box2 :
             w_->controlsPanel()->findChildren<QGroupBox*>(QString(), Qt::FindDirectChildrenOnly))
            QVERIFY(!box2->isHidden() && box2->isEnabled());
    }

    /// Hovering a row (a query token) of a layer's map or of a head in the Model tab shows
    /// that token's predictions in the box; leaving goes back to the token clicked last (or
    /// the last token).
    // "Loss on the second copy" only where there is one: a string said twice, not a text that
    // does not repeat nor a word said twice.
    void theSecondCopyIsOnlyARealRepeat() {
        w_->openModel(shipped_model(QStringLiteral("attn-only-2l")));
        QTRY_VERIFY_WITH_TIMEOUT(w_->document()->computeConfig().usesModel(), 60000);
        PredictionsBox* box = w_->modelPanel()->predictions();
        const struct {
            const char* text;
            bool repeats;
        } cases[] = {{"Early to bed and early to rise", false},
                     {"haha", false},
                     {"no no", false},
                     {"abcab", false},
                     {"kq7Zp kq7Zp", true},
                     {"kq7Zpkq7Zp", true},
                     {"kq7Zp kq7Zx", false}};
        for (const auto& c : cases) {
            w_->document()->setTextA(QString::fromUtf8(c.text));
            SETTLE(*w_);
            QTRY_VERIFY_WITH_TIMEOUT(snap()->model && snap()->model->predictions, 60000);
            QTRY_COMPARE(box->lossLines().size(), c.repeats ? 2 : 1);
            QVERIFY2(box->lossLines().join(QLatin1Char(' ')).contains(QLatin1String("second")) ==
                         c.repeats,
                     c.text);
            const QString summary = w_->grid()->predictionStrip()->summary();
            QVERIFY2(summary.contains(QLatin1String("second copy")) == c.repeats,
                     qPrintable(summary));
        }
    }

    void hoveringAMapRowMovesThePredictionsBox() {
        openModelWithRepeatedText();
        AttentionDocument* doc = w_->document();
        PredictionsBox* box = w_->modelPanel()->predictions();
        const ModelPredictions& p = *maps().predictions;
        const int last = p.positions.back();
        QCOMPARE(last, 100);
        QCOMPARE(box->shownPiece(), last);
        QCOMPARE(box->rows(false).value(0), top1_row(p, last));

        // The heatmap of layer 1, head 3, enlarged (rows several pixels high).
        doc->setLayer(0);
        doc->setView(FigureView::Head, 2);
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        SETTLE(*w_);
        QCustomPlot* plot = w_->grid()->plot();
        HeatmapFigure* figure = w_->grid()->figure();
        QCOMPARE(figure->panelCount(), 1);
        // The row under the mouse, moved to the middle of `row` (twice: hovering may lay the
        // figure out again).
        const auto hover_row = [&](int row) {
            for (int k = 0; k < 2; ++k) {
                QCPAxisRect* panel = figure->panelRect(0);
                const double y = panel->axis(QCPAxis::atLeft)->coordToPixel(row);
                QTest::mouseMove(plot, QPoint(panel->rect().center().x(), int(std::lround(y))));
                QTest::qWait(20);
            }
            return figure->hitTest(QPointF(plot->mapFromGlobal(QCursor::pos()))).row;
        };
        QCOMPARE(hover_row(30), 30);
        QTRY_COMPARE(box->shownPiece(), maps().pieceOf(30));
        QCOMPARE(box->shownPiece(), 30);  // no window, no words: the tokens are the pieces
        QCOMPARE(box->rows(false).value(0), top1_row(p, 30));
        QVERIFY(top1_row(p, 30) != top1_row(p, last));
        QCOMPARE(hover_row(72), 72);
        QTRY_COMPARE(box->shownPiece(), 72);
        QCOMPARE(box->rows(false).value(0), top1_row(p, 72));

        // Leaving the map: back to the last token.
        QTest::mouseMove(w_->modelPanel(), QPoint(5, 5));
        QTRY_COMPARE(box->shownPiece(), last);
        QCOMPARE(box->rows(false).value(0), top1_row(p, last));

        // Clicking a token of the strip focuses it; hovering leaves it and comes back to it.
        PredictionStrip* strip = w_->grid()->predictionStrip();
        int x = -1;
        for (int px = 0; px < strip->width() && x < 0; ++px)
            if (strip->tokenAt(px) == 12) x = px;
        QVERIFY(x >= 0);
        QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(x, strip->height() / 2));
        QTest::mouseMove(w_->modelPanel(), QPoint(5, 5));
        QTRY_COMPARE(box->shownPiece(), strip->guesses()[12].piece);
        const int clicked = box->shownPiece();
        QCOMPARE(hover_row(45), 45);
        QTRY_COMPARE(box->shownPiece(), 45);
        QTest::mouseMove(w_->modelPanel(), QPoint(5, 5));
        QTRY_COMPARE(box->shownPiece(), clicked);

        // The Model tab: a row of layer 2, head 8's map.
        w_->views()->setCurrentTab(ViewTabs::ModelTab);
        ModelView* mosaic = w_->views()->modelView();
        QTRY_VERIFY(!mosaic->cellRect(1, 7).isEmpty());
        // The mouse on a map, at a fraction of its height (twice, as above); the token whose
        // band of the map (one row per token, over the whole cell) holds the mouse.
        const auto hover_cell = [&](int layer, int column, double fraction) {
            const QRect cell = mosaic->cellRect(layer, column);
            for (int k = 0; k < 2; ++k) {
                QTest::mouseMove(
                    mosaic, QPoint(cell.center().x(), cell.top() + int(cell.height() * fraction)));
                QTest::qWait(20);
            }
            const QPoint mouse = mosaic->mapFromGlobal(QCursor::pos());
            if (!cell.contains(mouse)) return -1;
            return int(std::floor(double(mouse.y() - cell.top()) * maps().tokens / cell.height()));
        };
        const int token = hover_cell(1, 7, 0.67);
        QVERIFY2(token > 50, qPrintable(QString::number(token)));
        QTRY_COMPARE(box->shownPiece(), maps().pieceOf(token));
        QCOMPARE(box->rows(false).value(0), top1_row(p, token));
        // Its layer's mean too, near the top.
        const int early = hover_cell(1, maps().meanColumn(), 0.05);
        QVERIFY2(early >= 0 && early < 10, qPrintable(QString::number(early)));
        QTRY_COMPARE(box->shownPiece(), maps().pieceOf(early));
        QCOMPARE(box->rows(false).value(0), top1_row(p, early));
        QTest::mouseMove(w_->modelPanel(), QPoint(5, 5));
        QTRY_COMPARE(box->shownPiece(), clicked);
    }

    void typingIsOneUndoStep() {
        AttentionDocument* doc = w_->document();
        QUndoStack* stack = w_->history()->stack();
        const QString before = doc->textA();
        const int count = stack->count();
        for (const QString& t :
             {QStringLiteral("a"), QStringLiteral("ab"), QStringLiteral("abc")}) {
            doc->setTextA(t);
            QTest::qWait(1);
        }
        QCOMPARE(stack->count(), count + 1);
        doc->setCausal(!doc->causal());
        QTest::qWait(1);
        QCOMPARE(stack->count(), count + 2);
        // Looking around is no edit: nothing to undo.
        doc->setView(FigureView::Mean);
        QTest::qWait(1);
        QCOMPARE(stack->count(), count + 2);
        stack->undo();
        stack->undo();
        QCOMPARE(doc->textA(), before);
        QCOMPARE(doc->view(), FigureView::Mean);  // the view stays
        QTest::qWait(1);
        QCOMPARE(stack->count(), count + 2);  // undoing pushed nothing
        stack->redo();
        QCOMPARE(doc->textA(), QStringLiteral("abc"));
        // A new session starts a new history.
        w_->document()->setTextA(QStringLiteral("xyz"));
        QTest::qWait(1);
        QVERIFY(stack->canUndo());
        w_->setConfirmOnClose(false);
        QVERIFY(w_->loadExample(QStringLiteral("causal_mask")));
        SETTLE(*w_);
        QVERIFY(!stack->canUndo());
        QVERIFY(!stack->canRedo());
    }
};

QTEST_MAIN(KnockOutWidgetsTest)
#include "ui_knockout_widgets_test.moc"
