// The main window, driven through its real widgets: typing a sentence, changing the head
// count, causal masking, clicking a token label, dropout in training mode, hovering,
// enlarging a head, sessions and exports from the window.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImageReader>
#include <QInputMethodEvent>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include <cmath>
#include <memory>

#include <qcustomplot.h>

#include "engine/io/safetensors.h"
#include "test_support.h"
#include "ui/compute/background_job.h"
#include "ui/compute/compute_controller.h"
#include "ui/document/attention_document.h"
#include "ui/i18n/language.h"
#include "ui/render/fonts.h"
#include "ui/render/heatmap_figure.h"
#include "ui/render/token_ticker.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/figure_exports.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/main_window.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
QStringList labels(const QVector<QString>& v) {
    return QStringList(v.begin(), v.end());
}

QStringList tokens(const std::vector<QString>& v) {
    return QStringList(v.begin(), v.end());
}
}  // namespace

class WindowTest : public test::WindowFixture {
    Q_OBJECT

  private:
    HeatmapFigure* figure() { return w_->grid()->figure(); }

    /// The pixel position of cell (row, col) of a panel, in plot coordinates.
    QPoint cellPoint(int panel, int row, int col) {
        QCPAxisRect* r = figure()->panelRect(panel);
        return QPoint(int(r->axis(QCPAxis::atBottom)->coordToPixel(col)),
                      int(r->axis(QCPAxis::atLeft)->coordToPixel(row)));
    }
    /// A point on the key label of column `col` of a panel.
    QPoint keyLabelPoint(int panel, int col) {
        QCPAxisRect* r = figure()->panelRect(panel);
        return QPoint(int(r->axis(QCPAxis::atBottom)->coordToPixel(col)), r->rect().bottom() + 8);
    }
    /// Clicks a check box where a user would: on its indicator.
    static void clickCheck(QCheckBox* box) {
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(8, box->height() / 2));
    }
    /// Chinese text arrives through the input method, as a commit string.
    static void commitText(QLineEdit* edit, const QString& text) {
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Delete);
        QInputMethodEvent event;
        event.setCommitString(text);
        QCoreApplication::sendEvent(edit, &event);
    }
    void typeSentence(const QString& text) {
        QLineEdit* edit = find<QLineEdit>("sentenceEdit");
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Delete);
        QTest::keyClicks(edit, text);
    }

  private slots:
    void init() { openSettledWindow(); }
    void cleanup() { closeWindow(); }

    void firstLaunchShowsTheDemo() {
        const SnapshotPtr s = snap();
        QVERIFY(s);
        QCOMPARE(w_->document()->textA(), AttentionDocument::demoSentence());
        const QStringList demo{"The", "cat",     "sat", "on",  "the",
                               "mat", "because", "it",  "was", "tired"};
        QCOMPARE(figure()->panelCount(), w_->document()->numHeads() + 1);  // heads + mean
        for (int p = 0; p < figure()->panelCount(); ++p) {
            QCOMPARE(labels(figure()->keyLabels(p)), demo);
            QCOMPARE(labels(figure()->queryLabels(p)), demo);
            QCPColorMap* map = figure()->panelMap(p);
            QVERIFY(!map->interpolate());
            QCOMPARE(map->data()->keySize(), 10);
            QCOMPARE(map->data()->valueSize(), 10);
            // Square cells: the panel is as wide per key as it is tall per query.
            const QRect inner = figure()->panelRect(p)->rect();
            QVERIFY2(std::abs(inner.width() / 10.0 - inner.height() / 10.0) <= 1.0,
                     qPrintable(QStringLiteral("%1 x %2").arg(inner.width()).arg(inner.height())));
        }
        QCOMPARE(figure()->panelHead(figure()->panelCount() - 1), -1);
        QVERIFY(figure()->colorScale());
        // Rows of a softmax sum to one.
        for (int i = 0; i < s->target_len; ++i) {
            double sum = 0;
            for (int j = 0; j < s->source_len; ++j)
                sum += s->weight(0, 0, i, j);
            ATTNVIZ_FUZZY(sum, 1.0, 1e-4);
        }
    }

    void typingASentenceRedrawsTheGrid() {
        typeSentence(QStringLiteral("Hello brave new world"));
        SETTLE(*w_);
        const QStringList expected{"Hello", "brave", "new", "world"};
        QCOMPARE(figure()->panelCount(), w_->document()->numHeads() + 1);
        for (int p = 0; p < figure()->panelCount(); ++p) {
            QCOMPARE(labels(figure()->keyLabels(p)), expected);
            QCOMPARE(labels(figure()->queryLabels(p)), expected);
            QCOMPARE(figure()->panelMap(p)->data()->keySize(), 4);
        }
        QCOMPARE(find<QLineEdit>("tokenListEdit")->text(),
                 QStringLiteral("Hello | brave | new | world"));
    }

    void editedTokenListIsUsedAsGiven() {
        clickCheck(find<QCheckBox>("editTokensCheck"));
        QLineEdit* list = find<QLineEdit>("tokenListEdit");
        QVERIFY(!list->isReadOnly());
        list->selectAll();
        QTest::keyClick(list, Qt::Key_Delete);
        QTest::keyClicks(list, QStringLiteral("un|believ|able"));
        SETTLE(*w_);
        QCOMPARE(labels(figure()->keyLabels(0)), (QStringList{"un", "believ", "able"}));
    }

    // A token that draws nothing (a control character, a noncharacter, only zero-width or
    // format characters) still gets a label a student can see and click: its code points.
    // (The token list drops zero-width spaces around tokens, as the tokenizer does.)
    void invisibleTokensGetVisibleLabels() {
        clickCheck(find<QCheckBox>("editTokensCheck"));
        QLineEdit* list = find<QLineEdit>("tokenListEdit");
        commitText(list, QStringLiteral("un|\u200B|\uFFFF|a\u0007b|\U0001F468\u200D\U0001F469"));
        SETTLE(*w_);
        QCOMPARE(labels(figure()->keyLabels(0)),
                 (QStringList{"un", "<U+FFFF>", "a<U+0007>b",
                              QStringLiteral("\U0001F468\u200D\U0001F469")}));
        const QFontMetricsF fm(figure()->panelRect(0)->axis(QCPAxis::atBottom)->tickLabelFont());
        for (const QString& label : labels(figure()->queryLabels(0)))
            QVERIFY2(fm.horizontalAdvance(label) > 1.0, qPrintable(label));
        QCOMPARE(visible_token(QString()), QStringLiteral("\"\""));
        QCOMPARE(visible_token(QStringLiteral("  ")), QStringLiteral("<U+0020><U+0020>"));
        QCOMPARE(visible_token(QStringLiteral("\u00AD")), QStringLiteral("<U+00AD>"));
        QCOMPARE(visible_token(QStringLiteral("\u200B\u200D")), QStringLiteral("<U+200B><U+200D>"));
        QCOMPARE(visible_token(QStringLiteral("猫")), QStringLiteral("猫"));
    }

    // New colours for a large grid are made on the worker: the grid keeps its colours until
    // maps in the new ones arrive for the same snapshot, then takes both at once.
    void newColoursOfALargeGridAreMadeOnTheWorker() {
        QStringList words;
        for (int k = 0; k < 480; ++k)
            words << QStringLiteral("w%1").arg(k);
        w_->document()->setTextA(words.join(QLatin1Char(' ')));
        SETTLE(*w_);
        const SnapshotPtr before = w_->compute()->latest();
        QVERIFY(std::size_t(before->heads + 1) * before->target_len * before->source_len >=
                std::size_t(1) << 20);
        const Colormap old = w_->grid()->figure()->options().colormap;
        QComboBox* colormap = find<QComboBox>("colormapCombo");
        const Colormap wanted = old == Colormap::Cividis ? Colormap::Viridis : Colormap::Cividis;
        colormap->setCurrentIndex(colormap->findData(int(wanted)));
        emit colormap->activated(colormap->currentIndex());
        QCOMPARE(w_->document()->colormap(), wanted);
        SETTLE(*w_);
        // The same snapshot (nothing recomputed) with maps the worker coloured anew.
        QCOMPARE(w_->compute()->latest(), before);
        QVERIFY(w_->compute()->latestMaps());
        QCOMPARE(w_->compute()->latestMaps()->colormap, wanted);
        QCOMPARE(w_->compute()->latestMaps()->generation, before->generation);
        QCOMPARE(w_->grid()->figure()->options().colormap, wanted);
        // A refused request leaves the old snapshot on show; new colours must not pass it
        // off as the answer to that request.
        w_->document()->setWeightsFile(QStringLiteral("/nonexistent/weights.safetensors"));
        SETTLE(*w_);
        const QString refused = w_->compute()->lastError();
        QVERIFY(!refused.isEmpty());
        colormap->setCurrentIndex(colormap->findData(int(old)));
        emit colormap->activated(colormap->currentIndex());
        SETTLE(*w_);
        QCOMPARE(w_->compute()->lastError(), refused);
        QCOMPARE(w_->compute()->latest(), before);
        auto* message = w_->grid()->findChild<QLabel*>(QStringLiteral("gridMessage"));
        QVERIFY(message && message->isVisibleTo(w_->grid()));
        w_->document()->setWeightsFile(QString());
        colormap->setCurrentIndex(colormap->findData(int(wanted)));
        emit colormap->activated(colormap->currentIndex());
        SETTLE(*w_);
        QVERIFY(w_->compute()->lastError().isEmpty());
        // Small grids change colour at once, on the GUI thread.
        w_->document()->setTextA(QStringLiteral("The cat sat"));
        SETTLE(*w_);
        const SnapshotPtr small = w_->compute()->latest();
        colormap->setCurrentIndex(colormap->findData(int(old)));
        emit colormap->activated(colormap->currentIndex());
        SETTLE(*w_);
        QCOMPARE(w_->grid()->figure()->options().colormap, old);
        QCOMPARE(w_->compute()->latestMaps()->colormap, wanted);  // not coloured again
        QCOMPARE(w_->compute()->latest(), small);
    }

    void headCountFollowsTheCombo() {
        QComboBox* heads = find<QComboBox>("numHeadsCombo");
        // Only divisors of embed_dim are offered.
        for (int k = 0; k < heads->count(); ++k)
            QCOMPARE(w_->document()->embedDim() % heads->itemData(k).toInt(), 0);
        heads->setCurrentIndex(heads->findData(8));
        SETTLE(*w_);
        QCOMPARE(snap()->heads, 8);
        QCOMPARE(figure()->panelCount(), 9);
        heads->setCurrentIndex(heads->findData(1));
        SETTLE(*w_);
        QCOMPARE(figure()->panelCount(), 1);  // one head: no separate mean panel

        // embed_dim 60 with 8 heads: the combo offers divisors of 60, a message explains.
        heads->setCurrentIndex(heads->findData(8));
        SETTLE(*w_);
        find<QSpinBox>("embedDimSpin")->setValue(60);
        SETTLE(*w_);
        QCOMPARE(w_->document()->numHeads(), 6);
        QCOMPARE(heads->currentData().toInt(), 6);
        QVERIFY(find<QLabel>("headsMessage")->isVisibleTo(w_.get()));
        QCOMPARE(figure()->panelCount(), 7);
        QCOMPARE(heads->findData(8), -1);
    }

    /// Issue 35: typing a new embed_dim kept the head counts (1..16 divide both 64 and 1024)
    /// and with them the old head_dim in every label.
    void headLabelsFollowTheTypedEmbedDim() {
        QComboBox* heads = find<QComboBox>("numHeadsCombo");
        QSpinBox* embed = find<QSpinBox>("embedDimSpin");
        heads->setCurrentIndex(heads->findData(16));
        SETTLE(*w_);
        embed->setFocus();
        embed->selectAll();
        QTest::keyClicks(embed, QStringLiteral("1024"));
        QTest::keyClick(embed, Qt::Key_Return);
        SETTLE(*w_);
        QCOMPARE(w_->document()->embedDim(), 1024);
        QCOMPARE(heads->currentData().toInt(), 16);
        QVERIFY2(heads->currentText().contains(QLatin1String("head_dim 64")),
                 qPrintable(heads->currentText()));
        for (int k = 0; k < heads->count(); ++k) {
            const int h = heads->itemData(k).toInt();
            QVERIFY2(heads->itemText(k).endsWith(QStringLiteral("(head_dim %1)").arg(1024 / h)),
                     qPrintable(heads->itemText(k)));
        }
        QCOMPARE(snap()->config.embed_dim / snap()->heads, 64);
    }

    /// Issue 35: with the mean only kept, the status bar said "0 heads".
    void theStatusBarCountsTheHeadsOfAMeanOnlyResult() {
        // Its plurals as the app has them (the English catalog; no other test here reads one).
        QVERIFY(install_translations(QStringLiteral("en")));
        auto* timing = find<QLabel>("timingLabel");
        const int heads = w_->document()->numHeads();
        QVERIFY(heads > 2);
        const QString said[] = {QStringLiteral("· mean of %1 heads ·").arg(heads),
                                QStringLiteral("· 2 of %1 heads ·").arg(heads),
                                QStringLiteral("· %1 heads ·").arg(heads)};
        const int shown[] = {0, 2, heads};
        for (int k = 0; k < 3; ++k) {
            w_->document()->setHeadsShown(shown[k]);
            SETTLE(*w_);
            QCOMPARE(snap()->heads, shown[k]);
            QVERIFY2(timing->text().contains(said[k]), qPrintable(timing->text()));
        }
    }

    void causalMasksTheUpperTriangle() {
        clickCheck(find<QCheckBox>("causalCheck"));
        QVERIFY(w_->document()->causal());
        SETTLE(*w_);
        const SnapshotPtr s = snap();
        QVERIFY(s->config.causal);
        for (int p = 0; p < figure()->panelCount(); ++p) {
            QCPColorMapData* d = figure()->panelMap(p)->data();
            const int h = figure()->panelHead(p);
            for (int i = 0; i < s->target_len; ++i)
                for (int j = 0; j < s->source_len; ++j) {
                    QCOMPARE(std::isnan(d->cell(j, i)), j > i);  // masked cells are drawn apart
                    QCOMPARE(s->is_masked(0, i, j), j > i);
                    if (j > i) ATTNVIZ_FUZZY(s->value(0, h, i, j), 0.0, 0.0);
                }
        }
        // The first query can only see itself.
        ATTNVIZ_FUZZY(s->weight(0, 0, 0, 0), 1.0, 1e-6);
        // Ctrl+K toggles it back, even while typing in the sentence box.
        find<QLineEdit>("sentenceEdit")->setFocus();
        QTest::keyClick(find<QLineEdit>("sentenceEdit"), Qt::Key_K, Qt::ControlModifier);
        QCOMPARE(find<QLineEdit>("sentenceEdit")->text(), AttentionDocument::demoSentence());
        SETTLE(*w_);
        QVERIFY(!snap()->config.causal);
        QVERIFY(!find<QCheckBox>("causalCheck")->isChecked());
    }

    void clickingATokenLabelMasksThatKey() {
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, keyLabelPoint(0, 2));
        QVERIFY(w_->document()->isKeyMasked(0, 2));
        SETTLE(*w_);
        const SnapshotPtr s = snap();
        for (int p = 0; p < figure()->panelCount(); ++p)
            for (int i = 0; i < s->target_len; ++i) {
                QVERIFY(std::isnan(figure()->panelMap(p)->data()->cell(2, i)));
                ATTNVIZ_FUZZY(s->value(0, figure()->panelHead(p), i, 2), 0.0, 0.0);
            }
        QVERIFY(find<QLabel>("maskedKeysLabel")->text().contains(QLatin1String("sat")));
        // Masking every key makes every row fully masked; the zero policy gives zero rows.
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, keyLabelPoint(0, 2));
        SETTLE(*w_);
        QVERIFY(!w_->document()->isKeyMasked(0, 2));
        QVERIFY(!std::isnan(figure()->panelMap(0)->data()->cell(2, 0)));
    }

    void fullyMaskedRowsFollowThePolicy() {
        // Causal plus masking key 0 leaves the first query no key at all.
        w_->document()->setCausal(true);
        w_->document()->toggleMaskedKey(0, 0);
        QComboBox* policy = find<QComboBox>("maskedRowsCombo");
        policy->setCurrentIndex(policy->findData(int(MaskedRowPolicy::Uniform)));
        SETTLE(*w_);
        const SnapshotPtr s = snap();
        QVERIFY(s->row_fully_masked(0, 0, 0));
        QVERIFY(!s->row_fully_masked(0, 0, 1));
        ATTNVIZ_FUZZY(s->weight(0, 0, 0, 3), 1.0 / s->source_len, 1e-6);
        QVERIFY(figure()->captionText().contains(QLatin1String("fully masked")));
    }

    void dropoutChangesTheMapsAndTheSeedBringsThemBack() {
        const std::vector<float> eval = snap()->weights.data;
        clickCheck(find<QCheckBox>("trainingCheck"));
        find<QDoubleSpinBox>("dropoutSpin")->setValue(0.5);
        SETTLE(*w_);
        const std::vector<float> first = snap()->weights.data;
        QCOMPARE(first.size(), eval.size());
        QVERIFY(first != eval);
        const int seed = w_->document()->dropoutSeed();
        // Some weights dropped to zero, the rest scaled by 1 / (1 - p).
        int zeros = 0;
        for (float v : first)
            zeros += v == 0.0f;
        QVERIFY(zeros > 0);

        QTest::mouseClick(find<QPushButton>("resampleButton"), Qt::LeftButton);
        SETTLE(*w_);
        QCOMPARE(w_->document()->dropoutSeed(), seed + 1);
        QVERIFY(snap()->weights.data != first);

        find<QSpinBox>("dropoutSeedSpin")->setValue(seed);
        SETTLE(*w_);
        ATTNVIZ_COMPARE_ARRAYS(snap()->weights.data.data(), first.data(), first.size(), 0.0);

        // Evaluation mode: dropout off, the original maps.
        clickCheck(find<QCheckBox>("trainingCheck"));
        SETTLE(*w_);
        ATTNVIZ_COMPARE_ARRAYS(snap()->weights.data.data(), eval.data(), eval.size(), 0.0);
    }

    void hoverReadsACellAndHighlightsEveryHead() {
        w_->grid()->hoverAt(cellPoint(1, 3, 5));
        const QString text = w_->grid()->hoverText();
        QVERIFY2(text.contains(QLatin1String("head 2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("“on”")) && text.contains(QStringLiteral("“mat”")),
                 qPrintable(text));
        // Positions count from 1, as layers, heads and every other view do (issue 35).
        QVERIFY2(text.contains(QStringLiteral("query 4 “on”")) &&
                     text.contains(QStringLiteral("key 6 “mat”")),
                 qPrintable(text));
        QVERIFY2(text.contains(QString::number(double(snap()->weight(0, 1, 3, 5)), 'f', 4)),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("raw score")), qPrintable(text));
        QCOMPARE(figure()->highlightRow(), 3);
        QCOMPARE(figure()->highlightCol(), 5);
        QVERIFY(find<QLabel>("hoverLabel")->text() == text);
    }

    /// The hover is drawn in its own paint buffer on top of everything else, and the rest of
    /// the figure in one buffer below it (a replot clears and composes every buffer): the
    /// highlight shows in the widget's pixels, and the layers below the hover are logical.
    void hoverIsDrawnOnTopOfOneBuffer() {
        QCustomPlot* plot = w_->grid()->plot();
        QCPLayer* hover = plot->layer(QStringLiteral("hover"));
        QVERIFY(hover);
        QCOMPARE(hover->mode(), QCPLayer::lmBuffered);
        QCOMPARE(hover->index(), plot->layerCount() - 1);
        for (int k = 0; k < hover->index(); ++k)
            QVERIFY2(plot->layer(k)->mode() == QCPLayer::lmLogical,
                     qPrintable(plot->layer(k)->name()));
        const QImage before = plot->grab().toImage();
        w_->grid()->hoverAt(cellPoint(1, 3, 5));
        QCOMPARE(figure()->highlightRow(), 3);
        const QImage after = plot->grab().toImage();
        QCOMPARE(after.size(), before.size());
        QVERIFY2(after != before, "the hover highlight changed no pixel");
    }

    void tokenAxesKeepEveryLabelTheyShowDrawn() {
        // Forty tokens on one enlarged head: more labels an axis than QCustomPlot's 16 kept
        // pixmaps.  Each one shown stays drawn for the next replot (a generated token replots
        // the grid), not laid out again.
        QStringList words;
        for (int k = 1; k <= 40; ++k)
            words << QStringLiteral("w%1").arg(k);
        typeSentence(words.join(QLatin1Char(' ')));
        SETTLE(*w_);
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, cellPoint(0, 1, 1));
        SETTLE(*w_);
        QCOMPARE(figure()->panelCount(), 1);
        QCOMPARE(labels(figure()->keyLabels(0)), words);
        w_->grid()->plot()->replot(QCustomPlot::rpImmediateRefresh);
        for (const QCPAxis::AxisType side : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            QCPAxis* axis = figure()->panelRect(0)->axis(side);
            QSet<QString> shown;
            for (const QString& label : axis->tickVectorLabels())
                if (!label.isEmpty()) shown.insert(label);
            QVERIFY2(shown.size() > 16, qPrintable(QString::number(shown.size())));
            QVERIFY2(kept_tick_labels(axis) >= int(shown.size()),
                     qPrintable(QStringLiteral("%1 of %2 labels kept")
                                    .arg(kept_tick_labels(axis))
                                    .arg(shown.size())));
        }
    }

    void clickingAHeadEnlargesIt() {
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, cellPoint(2, 1, 1));
        QCOMPARE(w_->document()->view(), FigureView::Head);
        QCOMPARE(w_->document()->viewHead(), 2);
        SETTLE(*w_);
        QCOMPARE(figure()->panelCount(), 1);
        QCOMPARE(figure()->panelHead(0), 2);
        QVERIFY(figure()->valuesShown());  // ten tokens: values fit in the cells
        QCOMPARE(find<QComboBox>("viewCombo")->currentData().toInt(), 2);
        // Wheel zoom keeps the cells square and the ranges inside the data.
        QTest::keyClick(w_.get(), Qt::Key_Escape);
        SETTLE(*w_);
        QCOMPARE(w_->document()->view(), FigureView::Grid);
        QCOMPARE(figure()->panelCount(), w_->document()->numHeads() + 1);
    }

    void chineseTokensGetAFontThatHasThem() {
        commitText(find<QLineEdit>("sentenceEdit"), QStringLiteral("那只猫坐在垫子上"));
        SETTLE(*w_);
        QCOMPARE(labels(figure()->keyLabels(0)).first(), QStringLiteral("那"));
        const QFont font = figure()->panelRect(0)->axis(QCPAxis::atBottom)->tickLabelFont();
        QVERIFY2(font_covers(font, QStringLiteral("那只猫坐在垫子上")),
                 qPrintable(font.families().join(QLatin1Char(','))));
    }

    void sessionSaveAndReopenRestoresEverySetting() {
        find<QComboBox>("pairModeCombo")->setCurrentIndex(2);  // padded batch
        QLineEdit* second = find<QLineEdit>("secondSentenceEdit");
        second->selectAll();
        QTest::keyClick(second, Qt::Key_Delete);
        QTest::keyClicks(second, QStringLiteral("A short one"));
        find<QSpinBox>("embedDimSpin")->setValue(48);
        QComboBox* heads = find<QComboBox>("numHeadsCombo");
        heads->setCurrentIndex(heads->findData(6));
        clickCheck(find<QCheckBox>("biasCheck"));
        QComboBox* scoring = find<QComboBox>("scoringCombo");
        scoring->setCurrentIndex(scoring->findData(int(Scoring::Additive)));
        clickCheck(find<QCheckBox>("positionalCheck"));
        find<QSpinBox>("weightSeedSpin")->setValue(7);
        clickCheck(find<QCheckBox>("trainingCheck"));
        find<QDoubleSpinBox>("dropoutSpin")->setValue(0.2);
        find<QSpinBox>("dropoutSeedSpin")->setValue(11);
        clickCheck(find<QCheckBox>("causalCheck"));
        QComboBox* policy = find<QComboBox>("maskedRowsCombo");
        policy->setCurrentIndex(policy->findData(int(MaskedRowPolicy::NaN)));
        QComboBox* colormap = find<QComboBox>("colormapCombo");
        colormap->setCurrentIndex(colormap->findData(int(Colormap::Cividis)));
        QComboBox* scale = find<QComboBox>("scaleCombo");
        scale->setCurrentIndex(scale->findData(int(ScaleMode::PerHead)));
        SETTLE(*w_);
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, keyLabelPoint(0, 1));
        SETTLE(*w_);
        QVERIFY(w_->document()->isKeyMasked(0, 1));
        QVERIFY(w_->isWindowModified());

        const ComputeConfig saved = w_->document()->computeConfig();
        const FigureOptions saved_figure = w_->document()->figureOptions();
        const QString file = test::temp_path(QStringLiteral("window.attnviz"));
        QVERIFY(w_->saveSessionTo(file));
        QVERIFY(!w_->isWindowModified());
        QVERIFY(settings_->recentFiles().contains(file));

        MainWindow other(settings_.get());
        other.setConfirmOnClose(false);
        QVERIFY(other.openSession(file));
        QVERIFY(other.document()->computeConfig() == saved);
        QVERIFY(other.document()->figureOptions() == saved_figure);
        QTRY_COMPARE(other.findChild<QSpinBox*>(QStringLiteral("embedDimSpin"))->value(), 48);
        QCOMPARE(
            other.findChild<QComboBox*>(QStringLiteral("numHeadsCombo"))->currentData().toInt(), 6);
        QVERIFY(other.findChild<QCheckBox*>(QStringLiteral("causalCheck"))->isChecked());
        QCOMPARE(other.findChild<QLineEdit*>(QStringLiteral("secondSentenceEdit"))->text(),
                 QStringLiteral("A short one"));
        QTRY_VERIFY_WITH_TIMEOUT(test::settled(other), 30000);
        QCOMPARE(other.compute()->latest()->batch, 2);
        // The padded sentence's [PAD] keys are masked.
        const SnapshotPtr s = other.compute()->latest();
        QCOMPARE(tokens(s->key_tokens[1]).last(), QStringLiteral("[PAD]"));
        QVERIFY(s->is_masked(1, 0, s->source_len - 1));
    }

    void openingABadSessionShowsAnErrorAndKeepsRunning() {
        const ComputeConfig before = w_->document()->computeConfig();
        QVERIFY(!w_->openSession(test::temp_path(QStringLiteral("missing.attnviz"))));
        QVERIFY(w_->errorDialog());
        QTRY_VERIFY(w_->errorDialog()->isVisible());
        QVERIFY(w_->errorDialog()->text().contains(QLatin1String("missing.attnviz")));
        QVERIFY(w_->document()->computeConfig() == before);
        w_->errorDialog()->close();
        // Still working.
        clickCheck(find<QCheckBox>("causalCheck"));
        SETTLE(*w_);
        QVERIFY(snap()->config.causal);
    }

    void exportsFromTheWindow() {
        const FigureOptions options = w_->document()->figureOptions();
        const QString png = test::temp_path(QStringLiteral("window.png"));
        QVERIFY(test::export_figure(*w_, png, ExportSize{800, 500, 2.0}, options));
        QImageReader reader(png);
        QCOMPARE(reader.size(), QSize(1600, 1000));

        const QString svg = test::temp_path(QStringLiteral("window.svg"));
        QVERIFY(test::export_figure(*w_, svg, ExportSize{800, 500, 1.0}, options));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray xml = f.readAll();
        QVERIFY(xml.contains("<svg"));
        QVERIFY(xml.contains(">because</text>"));

        const QString pdf = test::temp_path(QStringLiteral("window.pdf"));
        QVERIFY(test::export_figure(*w_, pdf, ExportSize{800, 500, 1.0}, options));
        QFile p(pdf);
        QVERIFY(p.open(QIODevice::ReadOnly));
        QVERIFY(p.read(5) == "%PDF-");
        QVERIFY(p.size() > 5000);

        const QString csv = test::temp_path(QStringLiteral("weights.csv"));
        QVERIFY(test::export_weights(*w_, csv));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        QVERIFY(c.readLine().startsWith("item,head,query_index,query_token,0:The"));
    }

    void aBadExportPathShowsAnErrorAndLeavesNothing() {
        const QString bad = test::temp_path(QStringLiteral("no-such-folder/figure.png"));
        QVERIFY(!test::export_figure(*w_, bad, ExportSize{400, 300, 1.0},
                                     w_->document()->figureOptions()));
        QVERIFY(w_->errorDialog());
        QVERIFY(w_->lastError().contains(QLatin1String("no-such-folder")));
        QVERIFY(!QFile::exists(bad));
        w_->errorDialog()->close();

        const QString unknown = test::temp_path(QStringLiteral("figure.bmp"));
        QVERIFY(!test::export_figure(*w_, unknown, ExportSize{400, 300, 1.0},
                                     w_->document()->figureOptions()));
        QVERIFY(w_->lastError().contains(QLatin1String(".png")));
        QVERIFY(!QFile::exists(unknown));
    }

    // --- Load Weights… ----------------------------------------------------------------------

    /// The file is read off the GUI thread: the call returns before it is read and nothing
    /// changes until then; then the document takes the layer the file describes (embed_dim,
    /// bias) and the result runs on the file's weights.
    void loadWeightsReadsOffTheGuiThread() {
        const QString file = QString::fromStdString(test::golden_dir()) +
                             QStringLiteral("/bias_off/weights.safetensors");
        FigureExports* exports = test::exports_of(*w_);
        QVERIFY(exports);
        QVERIFY(w_->document()->bias());
        const QJsonObject before = w_->document()->toJson();
        QSignalSpy done(exports, &FigureExports::weightsLoadFinished);
        QVERIFY(w_->loadWeightsFrom(file));
        QVERIFY(exports->isLoadingWeights());
        QVERIFY(done.isEmpty());
        QCOMPARE(w_->document()->toJson(), before);
        QVERIFY(done.wait(30000));
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.front().front().toBool(), true);
        QVERIFY(!exports->isLoadingWeights());
        QCOMPARE(w_->document()->weightsFile(), QFileInfo(file).absoluteFilePath());
        QCOMPARE(w_->document()->embedDim(), 16);
        QVERIFY(!w_->document()->bias());
        SETTLE(*w_);
        QVERIFY2(w_->compute()->lastError().isEmpty(), qPrintable(w_->compute()->lastError()));
        QCOMPARE(snap()->config.weights_file, QFileInfo(file).absoluteFilePath());
        QVERIFY(snap()->steps);
        const io::TensorMap state = io::read_safetensors(file.toStdString());
        QCOMPARE(snap()->steps->w_o.data, state.at("out_proj.weight").data);
        QVERIFY(snap()->steps->b_o.empty());
    }

    /// A file the demo layer cannot run is refused with the dialog, and nothing changes.
    void refusedWeightsChangeNothing_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        const QString golden = QString::fromStdString(test::golden_dir());
        const QString io =
            QString::fromStdString(test::data_dir()) + QStringLiteral("/io/safetensors");
        QTest::newRow("missing") << test::temp_path(QStringLiteral("none.safetensors"))
                                 << QStringLiteral("none.safetensors");
        QTest::newRow("not safetensors") << io + QStringLiteral("/bad_npy_file.safetensors")
                                         << QStringLiteral("bad_npy_file.safetensors");
        QTest::newRow("not attention") << io + QStringLiteral("/mixed_dtypes.safetensors")
                                       << QStringLiteral("MultiheadAttention");
        QTest::newRow("kdim") << golden + QStringLiteral("/cross_kdim_vdim/weights.safetensors")
                              << QStringLiteral("kdim 10 and vdim 12");
        QTest::newRow("bias_kv") << golden + QStringLiteral("/bias_kv/weights.safetensors")
                                 << QStringLiteral("bias_k");
    }
    void refusedWeightsChangeNothing() {
        QFETCH(QString, file);
        QFETCH(QString, message);
        const QJsonObject before = w_->document()->toJson();
        QVERIFY(!test::load_weights(*w_, file));
        QVERIFY(w_->errorDialog() && w_->errorDialog()->isVisible());
        QVERIFY2(w_->lastError().contains(message), qPrintable(w_->lastError()));
        QCOMPARE(w_->document()->toJson(), before);
        w_->errorDialog()->close();
    }

    /// A second load replaces the first, whose result is dropped when it comes.
    void aNewerLoadReplacesTheFirst() {
        const QString golden = QString::fromStdString(test::golden_dir());
        const QString first = golden + QStringLiteral("/heads_8/weights.safetensors");
        const QString second = golden + QStringLiteral("/bias_off/weights.safetensors");
        FigureExports* exports = test::exports_of(*w_);
        QSignalSpy done(exports, &FigureExports::weightsLoadFinished);
        QVERIFY(w_->loadWeightsFrom(first));
        QVERIFY(w_->loadWeightsFrom(second));
        QVERIFY(done.wait(30000));
        // Both readers are done and their results delivered (the first one's dropped).
        QTRY_COMPARE_WITH_TIMEOUT(BackgroundJob::runningThreads(), 0, 30000);
        QCoreApplication::sendPostedEvents();
        QCOMPARE(done.size(), 1);
        QCOMPARE(done.front().front().toBool(), true);
        QCOMPARE(w_->document()->weightsFile(), QFileInfo(second).absoluteFilePath());
        QCOMPARE(w_->document()->embedDim(), 16);
    }

    /// Closing the window while a file is read: the window goes at once, the reader's result
    /// is dropped when it comes.
    void closingWhileWeightsLoadIsSafe() {
        const QString file = QString::fromStdString(test::golden_dir()) +
                             QStringLiteral("/odd_length_37/weights.safetensors");
        QVERIFY(w_->loadWeightsFrom(file));
        QVERIFY(test::exports_of(*w_)->isLoadingWeights());
        closeWindow();
        QTRY_COMPARE_WITH_TIMEOUT(BackgroundJob::runningThreads(), 0, 30000);
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
};

QTEST_MAIN(WindowTest)
#include "ui_window_test.moc"
