// The memory budget in the real window: a budget too small for the configuration gives the
// over-budget dialog with its offers (computed from the same estimate: each fits, one more
// head or token does not); clicking one computes and shows exactly that slice of the full
// result, visible and undoable in the bar over the heatmaps; the window moves along a long
// text; 100,000 pasted tokens and a megabyte of text give a message, not a hang; the budget
// comes from the app's setting (with its dialog) or ATTNVIZ_MEMORY_BUDGET; sessions keep
// what is shown; and the estimate bounds what computing and drawing really allocate.
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCommandLinkButton>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSlider>
#include <QStatusBar>
#include <QTest>
#include <QThread>
#include <QToolButton>

#include <memory>

#include <qcustomplot.h>

#include "alloc_counter.h"
#include "engine/text/tokenizer.h"
#include "test_support.h"
#include "ui/classroom/compare_view.h"
#include "ui/classroom/steps_model.h"
#include "ui/compute/compute_controller.h"
#include "ui/compute/resolved_config.h"
#include "ui/document/attention_document.h"
#include "ui/document/session.h"
#include "ui/render/figure_export.h"
#include "ui/render/heatmap_figure.h"
#include "ui/settings/app_settings.h"
#include "ui/widgets/heatmap_grid_view.h"
#include "ui/widgets/input_panel.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/memory_dialogs.h"
#include "ui/widgets/memory_guard.h"
#include "ui/widgets/scope_bar.h"
#include "ui/widgets/view_tabs.h"
#include "window_support.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {
constexpr std::uint64_t MiB = 1024 * 1024;

int threads() {
    return std::max(1, QThread::idealThreadCount());
}

QString numbered_words(int n) {
    QStringList words;
    for (int k = 0; k < n; ++k)
        words << QStringLiteral("w%1").arg(k);
    return words.join(QLatin1Char(' '));
}

/// The whole result of `c` (every head, every token), whatever the budget.
SnapshotPtr full_result(ComputeConfig c) {
    c.heads_shown = -1;
    c.window_start = c.window_length = 0;
    budget::MemoryBudget big;
    big.bytes = std::uint64_t(1) << 40;
    return compute_snapshot(c, 1, nullptr, 1, &big);
}

/// Every kept weight and mean of `s` equals its element of the full result.
void verify_slice_of_full(const AttentionSnapshot& s) {
    const SnapshotPtr full = full_result(s.config);
    QCOMPARE(full->heads, s.num_heads);
    for (int n = 0; n < s.batch; ++n)
        for (int h = -1; h < s.heads; ++h)
            for (int i = 0; i < s.target_len; ++i)
                for (int j = 0; j < s.source_len; ++j) {
                    const float a = s.value(n, h, i, j);
                    const float b = full->value(n, h, s.query_offset + i, s.key_offset + j);
                    if (std::abs(a - b) > 1e-6f + 1e-5f * std::abs(b))
                        QFAIL(qPrintable(QStringLiteral("item %1 head %2 [%3, %4]: %5, the full "
                                                        "result has %6")
                                             .arg(n)
                                             .arg(h)
                                             .arg(i)
                                             .arg(j)
                                             .arg(double(a))
                                             .arg(double(b))));
                }
}

/// Pastes like a user: the text on the clipboard, Ctrl+V into the sentence.
void paste_sentence(MainWindow& w, const QString& text) {
    QApplication::clipboard()->setText(text);
    QLineEdit* edit = w.inputPanel()->sentenceEdit();
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_V, Qt::ControlModifier);
}
}  // namespace

class MemoryTest : public test::WindowFixture {
    Q_OBJECT

  private:
    void openWindow(const QString& budget_setting) {
        QFile::remove(test::temp_path(QStringLiteral("settings.ini")));
        WindowFixture::openWindow(
            {{}, QSize(1400, 900), [&](AppSettings& s) { s.setMemoryBudget(budget_setting); }});
    }
    OverBudgetDialog* dialog() { return w_->memoryGuard()->overBudgetDialog(); }
    bool dialogShown() { return dialog() && dialog()->isVisible(); }
    HeatmapFigure* figure() { return w_->grid()->figure(); }

  private slots:
    void initTestCase() { qunsetenv(budget::kBudgetEnvironmentVariable); }
    void cleanup() {
        closeWindow();
        qunsetenv(budget::kBudgetEnvironmentVariable);
    }

    void tiny_budget_offers_what_fits() {
        // A budget exactly what the demo needs with two of its four heads kept.
        const ComputeConfig demo = AttentionDocument().computeConfig();
        const TokenSequences tokens = resolve_tokens(demo);
        budget::ResultScope two, three;
        two.heads_shown = 2;
        three.heads_shown = 3;
        const std::uint64_t fits = estimate_snapshot_bytes(demo, tokens, two, threads());
        QVERIFY(fits >= MiB && estimate_snapshot_bytes(demo, tokens, three, threads()) > fits);
        openWindow(QString::number(fits));

        QTRY_VERIFY_WITH_TIMEOUT(dialogShown(), 30000);
        QVERIFY(!snap());  // nothing was computed
        const budget::MemoryPlan plan = dialog()->plan();
        QCOMPARE(plan.budget, fits);
        QVERIFY(plan.needed > fits);
        QVERIFY(plan.fewer_heads && plan.mean_only);
        QCOMPARE(plan.fewer_heads->heads_shown, 2);
        QVERIFY(dialog()->fewerHeadsButton()->isVisible());
        QCOMPARE(dialog()->fewerHeadsButton()->text(), QStringLiteral("Show heads 1–2 only"));
        QVERIFY(dialog()->meanOnlyButton()->isVisible());
        QVERIFY2(dialog()->text().contains(QStringLiteral("Nothing was computed")),
                 qPrintable(dialog()->text()));
        QVERIFY(w_->scopeBar()->memoryLabel()->text().contains(QStringLiteral("over the")));
        QVERIFY(w_->statusBar()->currentMessage().contains(QStringLiteral("memory budget")));
        // The app keeps running behind the dialog.
        QVERIFY(!dialog()->isModal() || dialog()->windowModality() == Qt::WindowModal);

        QTest::mouseClick(dialog()->fewerHeadsButton(), Qt::LeftButton);
        SETTLE(*w_);
        QVERIFY(!dialogShown());
        QCOMPARE(w_->document()->headsShown(), 2);
        QCOMPARE(w_->scopeBar()->headsCombo()->currentData().toInt(), 2);
        QCOMPARE(figure()->panelCount(), 3);  // heads 1 and 2, and the mean of all four
        QVERIFY(figure()->panelTitle(2).startsWith(QStringLiteral("Mean of 4 head")));
        QVERIFY(figure()->titleText().contains(QStringLiteral("first 2 of 4 heads")));
        QCOMPARE(snap()->heads, 2);
        QCOMPARE(snap()->num_heads, 4);
        QVERIFY(snap()->estimated_bytes <= fits);
        verify_slice_of_full(*snap());
        // The lines view offers the kept heads only, and says why the others are greyed.
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        QCheckBox* line2 = child<QCheckBox>("lineHead2");
        QCheckBox* line3 = child<QCheckBox>("lineHead3");
        QVERIFY(line2 && line3);
        QTRY_VERIFY(!line3->isEnabled());
        QVERIFY(line2->isEnabled());
        QVERIFY2(line3->toolTip().contains(QStringLiteral("only heads 1–2 are shown")),
                 qPrintable(line3->toolTip()));
        w_->views()->setCurrentTab(ViewTabs::GridTab);

        // Undone in the bar: every head again is over the budget, and asks again.
        QTest::mouseClick(find<QPushButton>("showEverythingButton"), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown(), 30000);
        QCOMPARE(w_->document()->headsShown(), -1);
        QTest::mouseClick(dialog()->meanOnlyButton(), Qt::LeftButton);
        SETTLE(*w_);
        QCOMPARE(w_->document()->headsShown(), 0);
        QCOMPARE(figure()->panelCount(), 1);
        QCOMPARE(figure()->panelHead(0), -1);
        QCOMPARE(snap()->heads, 0);
        verify_slice_of_full(*snap());
        w_->views()->setCurrentTab(ViewTabs::LinesTab);
        QTRY_VERIFY(!line2->isEnabled());
        QVERIFY(line2->toolTip().contains(QStringLiteral("only the mean")));
        w_->views()->setCurrentTab(ViewTabs::GridTab);
        // The steps view says why it has nothing to show.
        QString why;
        QVERIFY(build_steps_model(*snap(), 0, 0, &why).empty());
        QVERIFY2(why.contains(QStringLiteral("memory budget")), qPrintable(why));
        // Steps through heads have nothing to step to, and do not crash.
        QTest::keyClick(w_.get(), Qt::Key_BracketRight, Qt::ControlModifier);
        QCOMPARE(w_->document()->headsShown(), 0);
    }

    void window_offer_and_navigator() {
        const QString text = numbered_words(400);
        ComputeConfig c = AttentionDocument().computeConfig();
        c.text_a = text;
        const TokenSequences tokens = resolve_tokens(c);
        budget::ResultScope sixty;
        sixty.window_length = 60;
        const std::uint64_t fits = estimate_snapshot_bytes(c, tokens, sixty, threads());
        openWindow(QString::number(fits));
        paste_sentence(*w_, text);
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown() && dialog()->plan().tokens == 400, 30000);
        QCOMPARE(int(resolve_tokens(w_->document()->computeConfig()).a.size()), 400);
        const budget::MemoryPlan plan = dialog()->plan();
        QVERIFY(plan.window);
        QCOMPARE(plan.window->window_length, std::int64_t(60));  // fits; 61 does not
        QCOMPARE(plan.window->window_start, std::int64_t(0));
        QCOMPARE(dialog()->windowButton()->text(), QStringLiteral("Show a window of 60 tokens"));

        QTest::mouseClick(dialog()->windowButton(), Qt::LeftButton);
        SETTLE(*w_);
        QCOMPARE(w_->document()->windowLength(), 60);
        QCOMPARE(snap()->target_len, 60);
        QCOMPARE(snap()->query_total, 400);
        QCOMPARE(snap()->query_offset, 0);
        QVERIFY(w_->scopeBar()->windowCheck()->isChecked());
        QVERIFY(w_->scopeBar()->windowSlider()->isVisible());
        QCOMPARE(find<QLabel>("windowOfLabel")->text(), QStringLiteral("Tokens 1–60 of 400"));
        QVERIFY(figure()->titleText().contains(QStringLiteral("tokens 1–60 of 400")));
        QCOMPARE(figure()->keyLabels(0).first(), QStringLiteral("w0"));
        verify_slice_of_full(*snap());

        // The next window, then the slider: the labels and weights follow.
        QTest::mouseClick(find<QToolButton>("windowNextButton"), Qt::LeftButton);
        SETTLE(*w_);
        QCOMPARE(snap()->query_offset, 60);
        QCOMPARE(figure()->keyLabels(0).first(), QStringLiteral("w60"));
        verify_slice_of_full(*snap());
        w_->scopeBar()->windowSlider()->setValue(340);
        SETTLE(*w_);
        QCOMPARE(w_->document()->windowStart(), 340);
        QCOMPARE(snap()->query_offset, 340);
        QCOMPARE(figure()->keyLabels(0).last(), QStringLiteral("w399"));
        QVERIFY(!find<QToolButton>("windowNextButton")->isEnabled());
        // Exported weights name positions in the whole text.
        const QByteArray csv = weights_csv(*snap());
        QVERIFY(csv.startsWith("item,head,query_index,query_token,340:w340,341:w341,"));
        QVERIFY(csv.contains("\n0,0,340,w340,"));
        QVERIFY(weights_json(*snap()).contains(
            R"("kept":{"key_offset":340,"key_total":400,"num_heads":4,"query_offset":340,)"));

        // A key label of the window masks that token of the whole text.
        w_->document()->setCausal(true);
        SETTLE(*w_);
        QCPAxisRect* r = figure()->panelRect(0);
        const QPoint label(int(r->axis(QCPAxis::atBottom)->coordToPixel(3)),
                           r->rect().bottom() + 8);
        QTest::mouseClick(w_->grid()->plot(), Qt::LeftButton, {}, label);
        SETTLE(*w_);
        QVERIFY(w_->document()->isKeyMasked(0, 343));
        QVERIFY(snap()->is_masked(0, 10, 3));
        QVERIFY(!snap()->is_masked(0, 10, 2));
        verify_slice_of_full(*snap());

        // Undone in the bar: the window off, and the budget asks again.
        QTest::mouseClick(w_->scopeBar()->windowCheck(), Qt::LeftButton, {},
                          QPoint(8, w_->scopeBar()->windowCheck()->height() / 2));
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown(), 30000);
        QCOMPARE(w_->document()->windowLength(), 0);
    }

    void a_hundred_thousand_pasted_tokens_give_a_message() {
        openWindow(QStringLiteral("8G"));  // every head of them would need about 1.2 TB
        SETTLE(*w_);
        QStringList words;
        for (int k = 0; k < 100000; ++k)
            words << QStringLiteral("t%1").arg(k % 977);
        const QString text = words.join(QLatin1Char(' '));
        QElapsedTimer clock;
        clock.start();
        paste_sentence(*w_, text);
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown() && dialog()->plan().tokens == 100000, 60000);
        qInfo("100,000 tokens: the dialog after %lld ms", static_cast<long long>(clock.elapsed()));
        // All of it arrived (a line edit keeps 32767 characters unless told otherwise).
        QCOMPARE(w_->document()->textA(), text);
        QCOMPARE(resolve_tokens(w_->document()->computeConfig()).a.size(), std::size_t(100000));
        const budget::MemoryPlan plan = dialog()->plan();
        QVERIFY(!plan.fits());
        QVERIFY(plan.window);
        QVERIFY(plan.window->window_length <= kMaxOfferedWindow);
        QVERIFY(plan.window_bytes <= plan.budget);
        QVERIFY(!find<QLabel>("gridMessage")->text().isEmpty());
        // The token line shows the first tokens and how many follow, not a megabyte.
        const QString shown = find<QLineEdit>("tokenListEdit")->text();
        QVERIFY2(shown.endsWith(QStringLiteral("(98000 more)")), qPrintable(shown.right(40)));
        // The window still answers.
        QTest::mouseClick(dialog()->findChild<QPushButton*>(QStringLiteral("closeButton")),
                          Qt::LeftButton);
        QTRY_VERIFY(!dialogShown());
        w_->document()->setCausal(true);
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown(), 60000);
    }

    void a_megabyte_of_text_gives_a_message() {
        openWindow(QString());
        SETTLE(*w_);
        QString text;
        const QString piece = QStringLiteral("那只猫坐在垫子上 the cat sat 🐱, on the mat! ");
        while (text.toUtf8().size() < 1024 * 1024)
            text += piece.repeated(256);
        const std::size_t expected = text::tokenize(text.toStdString()).size();
        QElapsedTimer clock;
        clock.start();
        paste_sentence(*w_, text);
        QTRY_VERIFY_WITH_TIMEOUT(dialogShown() && dialog()->plan().tokens == std::int64_t(expected),
                                 60000);
        qInfo("1 MB of text (%zu tokens): the dialog after %lld ms", expected,
              static_cast<long long>(clock.elapsed()));
        QCOMPARE(w_->document()->textA(), text);
        QVERIFY(dialog()->plan().window);
    }

    void budget_setting_and_its_dialog() {
        openWindow(QString());
        SETTLE(*w_);
        const std::uint64_t memory = budget::usable_memory_bytes();
        QCOMPARE(w_->compute()->memoryBudget().bytes,
                 std::uint64_t(double(memory) * budget::kDefaultBudgetFraction));
        w_->memoryGuard()->budgetAction()->trigger();
        MemoryBudgetDialog* d = w_->memoryGuard()->budgetDialog();
        QVERIFY(d && d->isVisible());
        QVERIFY(d->defaultButton()->isChecked());
        QVERIFY2(d->defaultButton()->text().startsWith(
                     QStringLiteral("&Default: 50% of this machine's memory (%1 of ")
                         .arg(QString::fromStdString(
                             budget::format_bytes(std::uint64_t(double(memory) * 0.5))))),
                 qPrintable(d->defaultButton()->text()));
        QPushButton* ok = d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        d->sizeEdit()->setText(QStringLiteral("lots"));
        QVERIFY(d->customButton()->isChecked());
        QVERIFY(!ok->isEnabled());
        d->sizeEdit()->setText(QStringLiteral("64M"));
        QVERIFY(ok->isEnabled());
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_VERIFY(!w_->memoryGuard()->budgetDialog());
        QCOMPARE(settings_->memoryBudget(), QStringLiteral("64M"));
        QCOMPARE(w_->compute()->memoryBudget().bytes, 64 * MiB);
        QVERIFY(w_->scopeBar()->memoryLabel()->toolTip().contains(QStringLiteral("64 MiB")));
        SETTLE(*w_);
        QCOMPARE(snap()->budget_bytes, 64 * MiB);
        // Back to the default.
        w_->memoryGuard()->editBudget();
        d = w_->memoryGuard()->budgetDialog();
        d->defaultButton()->setChecked(true);
        QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QTRY_VERIFY(!w_->memoryGuard()->budgetDialog());
        QCOMPARE(settings_->memoryBudget(), QString());
    }

    // The Compare tab's B is held to the same budget as A: a B over it says so (and nothing
    // is allocated), and a larger budget set in the dialog computes it.
    void compare_b_follows_the_window_budget() {
        const ComputeConfig demo = AttentionDocument().computeConfig();
        const TokenSequences tokens = resolve_tokens(demo);
        ComputeConfig eight = demo;
        eight.num_heads = 8;
        const std::uint64_t fits = estimate_snapshot_bytes(demo, tokens, {}, threads());
        QVERIFY(estimate_snapshot_bytes(eight, tokens, {}, threads()) > fits);
        openWindow(QString::number(fits));
        SETTLE(*w_);
        QCOMPARE(snap()->num_heads, 4);
        w_->views()->setCurrentTab(ViewTabs::CompareTab);
        CompareView* compare = w_->views()->compare();
        QTest::mouseClick(compare->presetButton(ComparePreset::Heads), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!compare->problem().isEmpty(), 30000);
        QVERIFY2(compare->problem().contains(QStringLiteral("memory budget")),
                 qPrintable(compare->problem()));
        QVERIFY(!compare->compared());
        QCOMPARE(compare->compute()->memoryBudget().bytes, fits);

        w_->memoryGuard()->editBudget();
        MemoryBudgetDialog* d = w_->memoryGuard()->budgetDialog();
        d->sizeEdit()->setText(QStringLiteral("1G"));
        QTest::mouseClick(d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(compare->compared() != nullptr, 30000);
        QCOMPARE(compare->compute()->memoryBudget().bytes, 1024 * MiB);
        QCOMPARE(compare->compared()->num_heads, 8);
        QVERIFY2(compare->problem().isEmpty(), qPrintable(compare->problem()));
    }

    void the_environment_overrides_the_setting() {
        qputenv(budget::kBudgetEnvironmentVariable, "3G");
        openWindow(QStringLiteral("64M"));
        SETTLE(*w_);
        QCOMPARE(w_->compute()->memoryBudget().bytes, 3 * 1024 * MiB);
        QVERIFY(w_->compute()->memoryBudget().source == budget::MemoryBudget::Source::Environment);
        w_.reset();
        // A broken variable is reported, and the app's own setting used.
        qputenv(budget::kBudgetEnvironmentVariable, "lots");
        openWindow(QStringLiteral("64M"));
        SETTLE(*w_);
        QCOMPARE(w_->compute()->memoryBudget().bytes, 64 * MiB);
        QVERIFY2(w_->statusBar()->currentMessage().contains(
                     QStringLiteral("ATTNVIZ_MEMORY_BUDGET: 'lots' is not a memory size")),
                 qPrintable(w_->statusBar()->currentMessage()));
    }

    void sessions_keep_what_is_shown() {
        AttentionDocument doc;
        doc.setNumHeads(8);
        doc.setHeadsShown(3);
        doc.setWindow(12, 40);
        QString error;
        QVERIFY2(save_session(test::temp_path(QStringLiteral("scope.attnviz")), doc, {}, &error),
                 qPrintable(error));
        AttentionDocument back;
        QVERIFY2(
            load_session(test::temp_path(QStringLiteral("scope.attnviz")), &back, nullptr, &error),
            qPrintable(error));
        QCOMPARE(back.headsShown(), 3);
        QCOMPARE(back.windowStart(), 12);
        QCOMPARE(back.windowLength(), 40);
        QVERIFY(back.computeConfig() == doc.computeConfig());
        // Every head or the mean only; a file without "scope" keeps everything.
        doc.setHeadsShown(0);
        doc.setWindow(0, 0);
        QVERIFY(back.fromJson(doc.toJson(), &error));
        QCOMPARE(back.headsShown(), 0);
        QCOMPARE(back.windowLength(), 0);
        QJsonObject old = doc.toJson();
        old.remove(QStringLiteral("scope"));
        QVERIFY(back.fromJson(old, &error));
        QCOMPARE(back.headsShown(), -1);
        // Bad values are refused and leave the document as it was.
        for (const auto& [key, value] : {std::pair<const char*, int>{"heads_shown", 99},
                                         {"heads_shown", -2},
                                         {"window_length", -3},
                                         {"window_start", -1}}) {
            QJsonObject json = doc.toJson();
            QJsonObject scope = json.value(QStringLiteral("scope")).toObject();
            scope[QLatin1String(key)] = value;
            json[QStringLiteral("scope")] = scope;
            QVERIFY2(!back.fromJson(json, &error), key);
            QVERIFY2(error.contains(QLatin1String(key)), qPrintable(error));
            QCOMPARE(back.headsShown(), -1);
        }
        // More kept heads than the layer has is every head; fewer heads than kept, too.
        doc.setHeadsShown(8);
        QCOMPARE(doc.headsShown(), -1);
        doc.setHeadsShown(6);
        doc.setNumHeads(4);
        QCOMPARE(doc.headsShown(), -1);
    }

    /// compute_snapshot, colouring the maps (as the worker does) and drawing the figure
    /// allocate no more than the estimate the budget is checked against.
    void estimate_bounds_computing_and_drawing_data() {
        QTest::addColumn<int>("config");
        for (int k = 0; k < 5; ++k)
            QTest::newRow(std::to_string(k).c_str()) << k;
    }
    void estimate_bounds_computing_and_drawing() {
        if (!test::heap_counting_available()) QSKIP("the heap belongs to a sanitizer here");
        QFETCH(int, config);
        ComputeConfig c;
        c.text_a = AttentionDocument::demoSentence();
        c.text_b = AttentionDocument::demoSecondSentence();
        switch (config) {
            case 0:
                break;  // the demo: steps and scores kept
            case 1:
                c.text_a = numbered_words(300);
                c.num_heads = 8;
                c.heads_shown = 3;
                c.window_start = 100;
                c.window_length = 80;
                break;
            case 2:
                c.text_a = numbered_words(120);
                c.text_b = numbered_words(80);
                c.pair_mode = PairMode::CrossAttention;
                c.heads_shown = 0;
                break;
            case 3:
                c.text_b = numbered_words(45);
                c.pair_mode = PairMode::PaddedBatch;
                c.embed_dim = 128;
                c.causal = true;
                break;
            case 4:
                c.text_a = numbered_words(700);
                c.num_heads = 2;
                break;
        }
        const TokenSequences tokens = resolve_tokens(c);
        const std::uint64_t estimate = estimate_snapshot_bytes(c, tokens, c.scope(), 2);
        budget::MemoryBudget b;
        b.bytes = estimate;  // exactly enough
        FigureOptions options;
        const QSize size(640, 400);
        (void)render_figure_image(*compute_snapshot(c, 1, nullptr, 2, &b), options, size, 1.0);

        const std::int64_t before = test::heap_live_bytes();
        test::reset_heap_peak();
        std::int64_t peak = 0;
        {
            const SnapshotPtr s = compute_snapshot(c, 1, nullptr, 2, &b);
            auto maps = std::make_shared<PreparedMaps>(
                build_prepared_maps(*s, Colormap::Viridis, ScaleMode::Shared));
            const QImage image = render_figure_image(*s, options, size, 1.0);
            QVERIFY(!image.isNull());
            peak = test::heap_peak_bytes() - before;
        }
        qInfo("estimate %llu bytes, peak %lld bytes", static_cast<unsigned long long>(estimate),
              static_cast<long long>(peak));
        QVERIFY2(peak <= std::int64_t(estimate),
                 qPrintable(QStringLiteral("peak %1 > estimate %2").arg(peak).arg(estimate)));
    }
};

QTEST_MAIN(MemoryTest)
#include "ui_memory_test.moc"
